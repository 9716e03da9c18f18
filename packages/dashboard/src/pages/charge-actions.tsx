import type { Charge } from '@payframe/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import { DashboardApiError } from '../api/api-error.ts';
import { ErrorMessage } from '../components/error-message.tsx';
import { useDashboard } from '../context.ts';
import { money } from '../format.ts';
import { useAction } from '../use-action.ts';
import { useMoneyInput } from '../use-money-input.ts';

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
      {pending && (
        <CaptureForm
          charge={charge}
          busy={action.busy}
          onInvalid={(message) => action.fail(new DashboardApiError('PARAMETER_INVALID', message, 0, 'amount'))}
          onCapture={(amount) => act(() => client.captureCharge(mode, charge.id, amount === charge.amount ? {} : { amount }))}
        />
      )}
      <div class="buttons">
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
  const { text, setText, reading } = useMoneyInput(remaining, charge.currency);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const amount = reading.ok ? reading.amount : null;
  const valid = amount !== null && (pending ? amount === remaining : amount <= remaining);
  const whole = money(remaining, charge.currency);
  const hint = pending ? `A pending charge is refunded whole: ${whole}.` : `Enter an amount from ${money(1, charge.currency)} to ${whole}.`;
  return (
    <form
      class="refund"
      aria-labelledby="refund-title"
      onSubmit={(event) => {
        event.preventDefault();
        if (!reading.ok) onInvalid(`${reading.message} ${hint}`);
        else onConfirm(reading.amount);
      }}
    >
      <h3 id="refund-title">Refund this charge</h3>
      <label for="refund-amount">
        {pending ? `Amount to refund (${charge.currency}): the whole ${whole}` : `Amount to refund (${charge.currency}), at most ${whole}`}
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
        {!reading.ok
          ? `${reading.message} ${hint}`
          : !valid
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

type CaptureFormProps = {
  charge: Charge;
  busy: boolean;
  onCapture: (amount: number) => void;
  onInvalid: (message: string) => void;
};

/** Capture the whole amount (as filled in) or part of it; the rest of a partial capture is released. */
function CaptureForm({ charge, busy, onCapture, onInvalid }: CaptureFormProps) {
  const { text, setText, reading } = useMoneyInput(charge.amount, charge.currency);
  const whole = money(charge.amount, charge.currency);
  const hint = `Enter an amount from ${money(1, charge.currency)} to ${whole}.`;
  const note = !reading.ok
    ? `${reading.message} ${hint}`
    : reading.amount > charge.amount
      ? hint
      : reading.amount === charge.amount
        ? `Captures ${whole}.`
        : `Captures ${money(reading.amount, charge.currency)} and releases the other ${money(charge.amount - reading.amount, charge.currency)}.`;
  return (
    <form
      class="capture inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!reading.ok) onInvalid(`${reading.message} ${hint}`);
        else onCapture(reading.amount);
      }}
    >
      <label for="capture-amount">Amount to capture ({charge.currency})</label>
      <input
        id="capture-amount"
        data-testid="capture-amount"
        inputMode="decimal"
        autocomplete="off"
        aria-invalid={!reading.ok || reading.amount > charge.amount}
        aria-describedby="capture-summary"
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <button type="submit" data-testid="charge-capture" disabled={busy}>
        Capture
      </button>
      <p id="capture-summary" aria-live="polite">
        {note}
      </p>
    </form>
  );
}
