import { type Charge, PayframeError } from '@payframe/node';
import type { Shop } from './context.ts';
import type { Order } from './orders.ts';

export type Settlement = 'paid' | 'failed' | 'awaiting-authentication' | 'ended';

/**
 * Where the order stands once the shopper is back (from 3-D Secure, or straight from checkout):
 * capture when the charge may be captured; cancel it when 3-D Secure failed, so the shopper's
 * funds are released at once rather than after seven days. The charge, read from Payframe, decides;
 * the `status` in the return URL is only a hint anyone could edit.
 */
export async function settle(shop: Shop, order: Order): Promise<Settlement> {
  const charge = await shop.payframe.charges.retrieve(order.chargeId);
  if (charge.status === 'PENDING') {
    switch (charge.threedSecure.status) {
      case 'CHARGEABLE':
      case 'NOT_AVAILABLE':
        return (await captured(shop, order, charge)) ? 'paid' : 'ended';
      case 'FAILED':
        await shop.orders.save({ ...order, authenticationFailed: true });
        await shop.payframe.charges.cancel(charge.id, { idempotencyKey: `cancel-${order.id}-${charge.id}` }).catch(ignoreCardError);
        return 'failed';
      case 'PENDING':
        return 'awaiting-authentication';
      case 'CAPTURED':
        return 'paid';
    }
  }
  if (charge.status === 'CHARGE_FAILED' && order.authenticationFailed) return 'failed';
  return charge.status === 'CHARGE_SUCCESS' ? 'paid' : 'ended';
}

/** One Idempotency-Key per order attempt (its charge): the return page and the webhook may both capture. */
async function captured(shop: Shop, order: Order, charge: Charge): Promise<boolean> {
  try {
    await shop.payframe.charges.capture(charge.id, {}, { idempotencyKey: `capture-${order.id}-${charge.id}` });
    return true;
  } catch (error) {
    // Another tab captured first, or the charge expired meanwhile: the receipt shows which.
    if (error instanceof PayframeError && error.status === 402) return error.code === 'CHARGE_ALREADY_CAPTURED';
    throw error;
  }
}

function ignoreCardError(error: unknown): void {
  if (!(error instanceof PayframeError && error.status === 402)) throw error;
}
