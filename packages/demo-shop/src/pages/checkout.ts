import { findProduct, type Product } from '../catalog.ts';
import type { Shop } from '../context.ts';
import { html, jsonBlock } from '../html.ts';
import { htmlReply, redirect, type Reply, type ShopRequest } from '../http.ts';
import { declineMessage } from '../messages.ts';
import { formatMoney } from '../money.ts';
import { PayframeApiError } from '../payframe-client.ts';
import { settle } from '../settle.ts';
import { notFound, unavailable } from './errors.ts';
import { layout } from './layout.ts';
import { authenticationFailedPage } from './payment-result.ts';

type Refusal = { message: string; code: string; declineReason: string | undefined };

/** The checkout: the Payframe card widget (with its e-mail field) inside the shop's own form. */
function checkoutPage(shop: Shop, product: Product, refusal?: Refusal) {
  const amount = formatMoney(product.price, product.currency);
  const head = html`<script src="${shop.payframeUrl}/v2/js/payframe.js"></script>
    ${jsonBlock('checkout-config', { publishableKey: shop.publishableKey })}
    <script src="/assets/checkout.js" defer></script>`;
  return layout(shop, {
    title: 'Checkout',
    testId: 'checkout',
    head,
    body: html`<h1>Checkout</h1>
      <p class="summary" data-testid="checkout-summary">
        <span data-testid="checkout-product">${product.name}</span> —
        <strong data-testid="checkout-amount">${amount}</strong>
      </p>
      <form id="checkout-form" method="post" action="/checkout" data-testid="checkout-form">
        <input type="hidden" name="product" value="${product.slug}" />
        <input type="hidden" name="token" value="" />
        <div id="card" data-testid="card-host"></div>
        <p id="checkout-error" class="error" role="alert" data-testid="checkout-error"
          data-code="${refusal?.code ?? ''}" data-decline-reason="${refusal?.declineReason ?? ''}">${refusal?.message ?? ''}</p>
        <button id="pay" type="submit" data-testid="pay" disabled>Pay ${amount}</button>
      </form>
      <p class="hint">Test mode: try 4242 4242 4242 4242 with any future expiry and any CVC.</p>`,
  });
}

export function showCheckout(shop: Shop, request: ShopRequest): Reply {
  const product = findProduct(request.url.searchParams.get('product'));
  return product ? htmlReply(checkoutPage(shop, product)) : notFound(shop, 'product');
}

/**
 * The form's POST, on the shop's server: charge the token with the secret key (the amount comes from
 * the catalog, never from the browser), then send the shopper to 3-D Secure or straight to capture.
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
  let charge;
  try {
    charge = await shop.payframe.createCharge(
      {
        token,
        amount: product.price,
        currency: product.currency,
        description: product.name,
        txn_reference: orderId,
        return_url: `${shop.url}/orders/${orderId}/return`,
      },
      `checkout-${orderId}`,
    );
  } catch (error) {
    if (!(error instanceof PayframeApiError) || error.status >= 500) return unavailable(shop);
    const refusal = { message: declineMessage(error), code: error.code, declineReason: error.declineReason };
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
  if (charge.threedSecure.status === 'PENDING') return redirect(charge.threedSecure.redirect);
  const outcome = await settle(shop, order);
  return outcome === 'failed' ? authenticationFailedPage(shop, order) : redirect(`/orders/${order.id}`);
}
