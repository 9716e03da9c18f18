import type { Charge } from '@payframe/contract';
import { decimalAmount, parseDecimalAmount } from '@payframe/contract/money-format';
import { useEffect, useRef, useState } from 'preact/hooks';
import { DashboardApiError } from '../api/api-error.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { useDashboard } from '../context.ts';
import { money } from '../format.ts';
import { useAction } from '../use-action.ts';

type Props = { charge: Charge; onChanged: () => void };

/** Capture, cancel and refund for an admin; nothing at all for a viewer. */
export function ChargeActions({ charge, onChanged }: Props) {
  const { client, mode, canWrite } = useDashboard();
  const action = useAction();
  const [refunding, setRefunding] = useState(false);
  if (!canWrite) return null;

  const pending = charge.status === 'PENDING';
  // A pending charge is refunded whole: its authorization is released (§7).
  const refundable =
    pending || ((charge.status === 'CHARGE_SUCCESS' || charge.status === 'PARTIALLY_REFUNDED') && charge.amount_refunded < charge.amount_captured);
  const act = async (mutation: () => Promise<unknown>) => {
    if ((await action.run(mutation)) !== undefined) onChanged();
  };

  return (
    <section class="actions" aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      <div class="buttons">
        {pending && (
          <button type="button" data-testid="charge-capture" disabled={action.busy} onClick={() => act(() => client.captureCharge(mode, charge.id))}>
            Capture
          </button>
        )}
        {pending && (
          <button type="button" data-testid="charge-cancel" disabled={action.busy} onClick={() => act(() => client.cancelCharge(mode, charge.id))}>
            Cancel charge
          </button>
        )}
        {refundable && !refunding && (
          <button type="button" data-testid="charge-refund" onClick={() => setRefunding(true)}>
            Refund…
          </button>
        )}
      </div>
      {refunding && refundable && (
        <RefundForm
          charge={charge}
          busy={action.busy}
          onCancel={() => {
            setRefunding(false);
            action.clear();
          }}
          onInvalid={(message) => action.fail(new DashboardApiError('PARAMETER_INVALID', message, 0, 'amount'))}
          onConfirm={async (amount) => {
            const refund = await action.run(() => client.refundCharge(mode, charge.id, { amount }));
            if (refund === undefined) return;
            setRefunding(false);
            onChanged();
          }}
        />
      )}
      <ErrorMessage error={action.error} testId="action-error" />
    </section>
  );
}

type RefundFormProps = {
  charge: Charge;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (amount: number) => void;
  /** Text that is no amount at all, which cannot be sent. */
  onInvalid: (message: string) => void;
};

/**
 * The confirmation step: the amount in major units as shown, and the sum spelled out before it
 * moves. Any amount is sent: the API says why one it cannot refund is refused (more than remains,
 * or part of a pending charge), in `action-error`, as for every other failure.
 */
function RefundForm({ charge, busy, onCancel, onConfirm, onInvalid }: RefundFormProps) {
  const pending = charge.status === 'PENDING';
  // A captured charge refunds what was captured (a partial capture released the rest).
  const remaining = (pending ? charge.amount : charge.amount_captured) - charge.amount_refunded;
  const [text, setText] = useState<string>(decimalAmount(remaining, charge.currency));
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const amount = parseDecimalAmount(text, charge.currency);
  const valid = amount !== null && (pending ? amount === remaining : amount <= remaining);
  const whole = money(remaining, charge.currency);
  const hint = pending ? `A pending charge is refunded whole: ${whole}.` : `Enter an amount from ${money(1, charge.currency)} to ${whole}.`;
  return (
    <form
      class="refund"
      aria-labelledby="refund-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (amount === null) onInvalid(`That is not an amount. ${hint}`);
        else onConfirm(amount);
      }}
    >
      <h3 id="refund-title">Refund this charge</h3>
      <label for="refund-amount">
        {pending
          ? `Amount to refund (${charge.currency}): the whole ${decimalAmount(remaining, charge.currency)}`
          : `Amount to refund (${charge.currency}), at most ${decimalAmount(remaining, charge.currency)}`}
      </label>
      <input
        ref={input}
        id="refund-amount"
        data-testid="refund-amount"
        inputMode="decimal"
        autocomplete="off"
        aria-invalid={!valid}
        aria-describedby="refund-summary"
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <p id="refund-summary" aria-live="polite">
        {!valid
          ? hint
          : pending
            ? `The authorization of ${money(amount, charge.currency)} on the card ending ${charge.token.card.last4Digits} is released; the charge can no longer be captured.`
            : `${money(amount, charge.currency)} goes back to the card ending ${charge.token.card.last4Digits}. This cannot be undone.`}
      </p>
      <div class="buttons">
        <button type="submit" data-testid="refund-confirm" disabled={busy}>
          {amount === null ? 'Refund' : `Refund ${money(amount, charge.currency)}`}
        </button>
        <button type="button" onClick={onCancel}>
          Keep the money
        </button>
      </div>
    </form>
  );
}
