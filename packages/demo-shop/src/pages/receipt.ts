import { createHmac, randomBytes } from 'node:crypto';
import type { Shop } from '../context.ts';
import { html } from '../html.ts';
import { htmlReply, redirect, type Reply, type ShopRequest } from '../http.ts';
import { orderState, refundErrorMessage } from '../messages.ts';
import { formatMoney, parseMoney, toDecimal } from '../money.ts';
import type { Order } from '../orders.ts';
import { type Charge, PayframeApiError } from '../payframe-client.ts';
import { notFound, unavailable } from './errors.ts';
import { layout } from './layout.ts';

/**
 * The receipt is public to anyone with its URL, so the attempt id it carries is not the
 * Idempotency-Key: the key is derived from it with a secret only this process holds.
 */
const REFUND_KEY_SECRET = randomBytes(32);

function refundIdempotencyKey(orderId: string, attempt: string): string {
  return `refund-${createHmac('sha256', REFUND_KEY_SECRET).update(`${orderId}\n${attempt}`).digest('base64url')}`;
}

function refundForms(order: Order, charge: Charge) {
  if (charge.status !== 'CHARGE_SUCCESS' && charge.status !== 'PARTIALLY_REFUNDED') return null;
  const remaining = charge.amount - charge.amount_refunded;
  // One attempt id per rendered form: a double-submitted form replays the first refund (Idempotency-Key).
  const attempt = randomBytes(8).toString('hex');
  return html`<section class="refunds-actions" aria-labelledby="refund-heading">
    <h2 id="refund-heading">Refund</h2>
    <form method="post" action="/orders/${order.id}/refund" class="inline">
      <input type="hidden" name="attempt" value="${attempt}-full" />
      <input type="hidden" name="kind" value="full" />
      <button type="submit" data-testid="refund-full">Refund ${formatMoney(remaining, charge.currency)} (everything left)</button>
    </form>
    <form method="post" action="/orders/${order.id}/refund" class="inline">
      <input type="hidden" name="attempt" value="${attempt}-partial" />
      <input type="hidden" name="kind" value="partial" />
      <label for="refund-amount">Amount (${charge.currency})</label>
      <input id="refund-amount" name="amount" inputmode="decimal" autocomplete="off" required
        placeholder="${toDecimal(Math.min(remaining, 100), charge.currency)}" data-testid="refund-amount" />
      <button type="submit" data-testid="refund-partial">Refund part</button>
    </form>
  </section>`;
}

function notice(order: Order, query: URLSearchParams) {
  const refunded = order.refunds.find((refund) => refund.id === query.get('refunded'));
  if (refunded) return html`<p class="notice" role="status" data-testid="refund-notice">Refunded ${formatMoney(refunded.amount, order.currency)}.</p>`;
  const code = query.get('error');
  if (code) {
    return html`<p class="error" role="alert" data-testid="refund-error" data-code="${code}">${refundErrorMessage(code)}</p>`;
  }
  return null;
}

export async function receiptPage(shop: Shop, request: ShopRequest): Promise<Reply> {
  const order = shop.orders.get(request.params[0] ?? '');
  if (!order) return notFound(shop, 'order');
  const charge = await shop.payframe.getCharge(order.chargeId);
  const state = orderState(charge, order.authenticationFailed);
  const card = charge.token.card;
  const refunds = order.refunds.map(
    (refund) => html`<li data-testid="refund-row" data-refund-id="${refund.id}">${formatMoney(refund.amount, order.currency)} on ${refund.created.replace('T', ' ')} UTC</li>`,
  );
  const awaiting = state.key === 'awaiting-authentication'
    ? html`<p><a class="button" href="${charge.threedSecure.redirect}" data-testid="continue-authentication">Continue to 3-D Secure</a></p>`
    : null;
  return htmlReply(
    layout(shop, {
      title: `Order ${order.id}`,
      testId: 'receipt',
      body: html`<h1>Receipt</h1>
        ${notice(order, request.url.searchParams)}
        <dl class="receipt">
          <dt>Order</dt><dd data-testid="receipt-order-id">${order.id}</dd>
          <dt>Item</dt><dd data-testid="receipt-item">${order.description}</dd>
          <dt>Amount</dt><dd data-testid="receipt-amount">${formatMoney(charge.amount, charge.currency)}</dd>
          <dt>Refunded</dt><dd data-testid="receipt-refunded">${formatMoney(charge.amount_refunded, charge.currency)}</dd>
          <dt>Card</dt><dd data-testid="receipt-card">${card.brand} •••• ${card.last4Digits}</dd>
          <dt>Payment</dt><dd data-testid="receipt-charge-id">${charge.id}</dd>
          <dt>Status</dt>
          <dd><span class="status ${state.tone}" data-testid="receipt-status" data-state="${state.key}" data-charge-status="${charge.status}">${state.label}</span></dd>
        </dl>
        ${awaiting}
        ${refundForms(order, charge)}
        ${refunds.length > 0 ? html`<h2>Refunds</h2><ul data-testid="refunds">${refunds}</ul>` : null}`,
    }),
  );
}

/** The refund buttons: the whole remaining balance, or the amount typed in (major units, "2.50"). */
export async function refundOrder(shop: Shop, request: ShopRequest): Promise<Reply> {
  const order = shop.orders.get(request.params[0] ?? '');
  if (!order) return notFound(shop, 'order');
  const back = (query: string) => redirect(`/orders/${order.id}?${query}`);
  let amount: number | undefined;
  if (request.form.get('kind') === 'partial') {
    const parsed = parseMoney(request.form.get('amount') ?? '', order.currency);
    if (parsed === null) return back('error=INVALID_AMOUNT');
    amount = parsed;
  }
  const attempt = (request.form.get('attempt') ?? '').replace(/[^\w-]/g, '').slice(0, 64) || randomBytes(8).toString('hex');
  try {
    const refund = await shop.payframe.refund(order.chargeId, amount, refundIdempotencyKey(order.id, attempt));
    const latest = shop.orders.get(order.id) ?? order;
    if (!latest.refunds.some((known) => known.id === refund.id)) {
      await shop.orders.save({ ...latest, refunds: [...latest.refunds, { id: refund.id, amount: refund.amount, created: refund.created }] });
    }
    return back(`refunded=${encodeURIComponent(refund.id)}`);
  } catch (error) {
    if (error instanceof PayframeApiError && error.status < 500) return back(`error=${encodeURIComponent(error.code)}`);
    if (error instanceof PayframeApiError) return unavailable(shop);
    throw error;
  }
}
