import { useState } from 'preact/hooks';

type Props = { label: string; secret: string; testId: string };

/** A secret the server shows only once: visible, selectable, and one click from the clipboard. */
export function SecretOnce({ label, secret, testId }: Props) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(secret).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  return (
    <fieldset class="secret" aria-label={label}>
      <p>
        <strong>{label}</strong>: copy it now, it will not be shown again.
      </p>
      <code data-testid={testId}>{secret}</code>
      <button type="button" onClick={copy}>
        Copy
      </button>
      <span role="status">{copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the text and copy it' : ''}</span>
    </fieldset>
  );
}
