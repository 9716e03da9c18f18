import { randomBytes } from 'node:crypto';
import type { Charge } from '@payframe/node';
import { orderState, refundErrorMessage } from '../messages.ts';
import { formatMoney, toDecimal } from '../money.ts';
import type { Order } from '../orders.ts';
import { Layout } from './layout.tsx';

function RefundForms({ order, charge }: { order: Order; charge: Charge }) {
  if (charge.status !== 'CHARGE_SUCCESS' && charge.status !== 'PARTIALLY_REFUNDED') return null;
  const remaining = charge.amount_captured - charge.amount_refunded;
  // One attempt id per rendered form: a double-submitted form replays the first refund (Idempotency-Key).
  const attempt = randomBytes(8).toString('hex');
  return (
    <section class="refunds-actions" aria-labelledby="refund-heading">
      <h2 id="refund-heading">Refund</h2>
      <form method="post" action={`/orders/${order.id}/refund`} class="inline">
        <input type="hidden" name="attempt" value={`${attempt}-full`} />
        <input type="hidden" name="kind" value="full" />
        <button type="submit" data-testid="refund-full">
          Refund {formatMoney(remaining, charge.currency)} (everything left)
        </button>
      </form>
      <form method="post" action={`/orders/${order.id}/refund`} class="inline">
        <input type="hidden" name="attempt" value={`${attempt}-partial`} />
        <input type="hidden" name="kind" value="partial" />
        <label for="refund-amount">Amount ({charge.currency})</label>
        <input
          id="refund-amount"
          name="amount"
          inputmode="decimal"
          autocomplete="off"
          required
          placeholder={toDecimal(Math.min(remaining, 100), charge.currency)}
          data-testid="refund-amount"
        />
        <button type="submit" data-testid="refund-partial">
          Refund part
        </button>
      </form>
    </section>
  );
}

function Notice({ order, query }: { order: Order; query: URLSearchParams }) {
  const refunded = order.refunds.find((refund) => refund.id === query.get('refunded'));
  if (refunded) {
    return (
      <p class="notice" role="status" data-testid="refund-notice">
        Refunded {formatMoney(refunded.amount, order.currency)}.
      </p>
    );
  }
  const code = query.get('error');
  if (!code) return null;
  return (
    <p class="error" role="alert" data-testid="refund-error" data-code={code}>
      {refundErrorMessage(code)}
    </p>
  );
}

type ReceiptProps = { order: Order; charge: Charge; query: URLSearchParams; payframeUrl: string };

export function ReceiptPage({ order, charge, query, payframeUrl }: ReceiptProps) {
  const state = orderState(charge, order.authenticationFailed);
  const card = charge.token.card;
  return (
    <Layout title={`Order ${order.id}`} testId="receipt" payframeUrl={payframeUrl}>
      <h1>Receipt</h1>
      <Notice order={order} query={query} />
      <dl class="receipt">
        <dt>Order</dt>
        <dd data-testid="receipt-order-id">{order.id}</dd>
        <dt>Item</dt>
        <dd data-testid="receipt-item">{order.description}</dd>
        <dt>Amount</dt>
        <dd data-testid="receipt-amount">{formatMoney(charge.amount, charge.currency)}</dd>
        <dt>Refunded</dt>
        <dd data-testid="receipt-refunded">{formatMoney(charge.amount_refunded, charge.currency)}</dd>
        <dt>Card</dt>
        <dd data-testid="receipt-card">
          {card.brand} •••• {card.last4Digits}
        </dd>
        <dt>Payment</dt>
        <dd data-testid="receipt-charge-id">{charge.id}</dd>
        <dt>Status</dt>
        <dd>
          <span class={`status ${state.tone}`} data-testid="receipt-status" data-state={state.key} data-charge-status={charge.status}>
            {state.label}
          </span>
        </dd>
      </dl>
      {state.key === 'awaiting-authentication' && (
        <p>
          <a class="button" href={charge.threedSecure.redirect} data-testid="continue-authentication">
            Continue to 3-D Secure
          </a>
        </p>
      )}
      <RefundForms order={order} charge={charge} />
      {order.refunds.length > 0 && (
        <>
          <h2>Refunds</h2>
          <ul data-testid="refunds">
            {order.refunds.map((refund) => (
              <li data-testid="refund-row" data-refund-id={refund.id}>
                {formatMoney(refund.amount, order.currency)} on {refund.created.replace('T', ' ')} UTC
              </li>
            ))}
          </ul>
        </>
      )}
    </Layout>
  );
}
