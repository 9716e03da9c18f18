import { createHmac, randomBytes } from 'node:crypto';
import { PayframeError } from '@payframe/node';
import { h } from 'preact';
import type { Shop } from '../context.ts';
import { htmlReply, type Reply, redirect, type ShopRequest } from '../http.ts';
import { parseMoney } from '../money.ts';
import { notFound, unavailable } from './errors.tsx';
import { ReceiptPage } from './receipt-page.tsx';

/**
 * The receipt is public to anyone with its URL, so the attempt id it carries is not the
 * Idempotency-Key: the key is derived from it with a secret only this process holds.
 */
const REFUND_KEY_SECRET = randomBytes(32);

function refundIdempotencyKey(orderId: string, attempt: string): string {
  return `refund-${createHmac('sha256', REFUND_KEY_SECRET).update(`${orderId}\n${attempt}`).digest('base64url')}`;
}

export async function receiptPage(shop: Shop, request: ShopRequest): Promise<Reply> {
  const order = shop.orders.get(request.params[0] ?? '');
  if (!order) return notFound(shop, 'order');
  const charge = await shop.payframe.charges.retrieve(order.chargeId);
  return htmlReply(h(ReceiptPage, { order, charge, query: request.url.searchParams, payframeUrl: shop.payframeUrl }));
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
    const refund = await shop.payframe.refunds.create(order.chargeId, amount === undefined ? {} : { amount }, {
      idempotencyKey: refundIdempotencyKey(order.id, attempt),
    });
    const latest = shop.orders.get(order.id) ?? order;
    if (!latest.refunds.some((known) => known.id === refund.id)) {
      await shop.orders.save({ ...latest, refunds: [...latest.refunds, { id: refund.id, amount: refund.amount, created: refund.created }] });
    }
    return back(`refunded=${encodeURIComponent(refund.id)}`);
  } catch (error) {
    if (error instanceof PayframeError && error.status < 500) return back(`error=${encodeURIComponent(error.code)}`);
    if (error instanceof PayframeError) return unavailable(shop);
    throw error;
  }
}
