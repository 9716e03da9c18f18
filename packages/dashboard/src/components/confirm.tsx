import { useEffect, useRef } from 'preact/hooks';

type Props = {
  /** What is asked, for assistive technology: "Revoke sk_test_…AbCd?". */
  question: string;
  consequence: string;
  confirmLabel: string;
  confirmTestId?: string;
  busy: boolean;
  onConfirm: () => void;
  onKeep: () => void;
};

/** The one confirmation before something that cannot be undone; its confirm button takes the focus. */
export function Confirm({ question, consequence, confirmLabel, confirmTestId, busy, onConfirm, onKeep }: Props) {
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []);
  return (
    <fieldset class="confirm" aria-label={question}>
      <span>{consequence}</span>
      <button ref={confirm} type="button" class="danger" data-testid={confirmTestId} disabled={busy} onClick={onConfirm}>
        {confirmLabel}
      </button>
      <button type="button" onClick={onKeep}>
        Keep it
      </button>
    </fieldset>
  );
}
