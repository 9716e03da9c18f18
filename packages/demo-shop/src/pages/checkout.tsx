import { CardError, PayframeError } from '@payframe/node';
import { findProduct, type Product } from '../catalog.ts';
import type { Shop } from '../context.ts';
import { htmlReply, type Reply, redirect, type ShopRequest } from '../http.ts';
import { declineMessage } from '../messages.ts';
import { settle } from '../settle.ts';
import { CheckoutPage, type Refusal } from './checkout-page.tsx';
import { notFound, unavailable } from './errors.tsx';
import { authenticationFailedPage } from './payment-result.tsx';

const checkoutPage = (shop: Shop, product: Product, refusal?: Refusal) => (
  <CheckoutPage product={product} payframeUrl={shop.payframeUrl} publishableKey={shop.publishableKey} refusal={refusal} />
);

export function showCheckout(shop: Shop, request: ShopRequest): Reply {
  const product = findProduct(request.url.searchParams.get('product'));
  return product ? htmlReply(checkoutPage(shop, product)) : notFound(shop, 'product');
}

/**
 * The form's POST, on the shop's server: charge the token with the secret key (the amount comes from
 * the catalog, never from the browser), then send the shopper to 3-D Secure (the shop's page with
 * the dialog, or Payframe's page) or straight to capture.
 */
export async function submitCheckout(shop: Shop, request: ShopRequest): Promise<Reply> {
  const product = findProduct(request.form.get('product'));
  if (!product) return notFound(shop, 'product');
  const token = request.form.get('token') ?? '';
  if (!/^[\w-]{1,255}$/.test(token)) {
    const refusal = { message: 'Enter your card details, then press Pay.', code: 'TOKEN_MISSING', declineReason: undefined };
    return htmlReply(checkoutPage(shop, product, refusal), 400);
  }
  const orderId = shop.orders.newId();
  let charge: Awaited<ReturnType<typeof shop.payframe.charges.create>>;
  try {
    charge = await shop.payframe.charges.create(
      {
        token,
        amount: product.price,
        currency: product.currency,
        description: product.name,
        txn_reference: orderId,
        return_url: `${shop.url}/orders/${orderId}/return`,
      },
      { idempotencyKey: `checkout-${orderId}` },
    );
  } catch (error) {
    if (!(error instanceof PayframeError) || error.status >= 500) return unavailable(shop);
    const refusal = { message: declineMessage(error), code: error.code, declineReason: error instanceof CardError ? error.declineReason : undefined };
    return htmlReply(checkoutPage(shop, product, refusal), error.status === 402 ? 402 : 400);
  }
  const order = {
    id: orderId,
    product: product.slug,
    description: product.name,
    amount: product.price,
    currency: product.currency,
    chargeId: charge.id,
    created: Date.now(),
    authenticationFailed: false,
    refunds: [],
  };
  await shop.orders.save(order);
  if (charge.threedSecure.status === 'PENDING') {
    return redirect(shop.threeDSDisplay === 'modal' ? `/orders/${order.id}/authenticate` : charge.threedSecure.redirect);
  }
  const outcome = await settle(shop, order);
  return outcome === 'failed' ? authenticationFailedPage(shop, order) : redirect(`/orders/${order.id}`);
}
