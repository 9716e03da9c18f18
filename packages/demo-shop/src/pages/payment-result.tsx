import type { Shop } from '../context.ts';
import { htmlReply, type Reply, redirect, type ShopRequest } from '../http.ts';
import { AUTHENTICATION_FAILED } from '../messages.ts';
import type { Order } from '../orders.ts';
import { JsonBlock } from '../render.tsx';
import { settle } from '../settle.ts';
import { notFound } from './errors.tsx';
import { Layout } from './layout.tsx';

export function AuthenticationFailedPage({ order, payframeUrl }: { order: Order; payframeUrl: string }) {
  return (
    <Layout title="Payment failed" testId="payment-failed" payframeUrl={payframeUrl}>
      <h1>Payment failed</h1>
      <p class="error" role="alert" data-testid="payment-failed-message">
        {AUTHENTICATION_FAILED}
      </p>
      <p>
        Your bank could not confirm it was you, so nothing was charged for order <span data-testid="order-id">{order.id}</span>.
      </p>
      <a class="button" href={`/checkout?product=${encodeURIComponent(order.product)}`} data-testid="try-another-card">
        Try another card
      </a>
    </Layout>
  );
}

type PendingProps = { order: Order; redirectUrl: string; payframeUrl: string };

export function AwaitingAuthenticationPage({ order, redirectUrl, payframeUrl }: PendingProps) {
  return (
    <Layout title="Authentication not completed" testId="payment-pending" payframeUrl={payframeUrl}>
      <h1>Authentication not completed</h1>
      <p data-testid="payment-pending-message">
        Your bank is still waiting for you to confirm this payment (order <span data-testid="order-id">{order.id}</span>).
      </p>
      <a class="button" href={redirectUrl} data-testid="continue-authentication">
        Continue to 3-D Secure
      </a>
    </Layout>
  );
}

type AuthenticateProps = { order: Order; redirectUrl: string; publishableKey: string; payframeUrl: string };

/**
 * 3-D Secure without leaving the shop: the page's script opens Payframe's challenge in a dialog
 * (`handleThreeDS`) and comes back to the return URL with the outcome; the link is the full
 * redirect, for browsers without JavaScript.
 */
export function AuthenticatePage({ order, redirectUrl, publishableKey, payframeUrl }: AuthenticateProps) {
  const head = (
    <>
      <script src={`${payframeUrl}/v2/js/payframe.js`} />
      <JsonBlock id="three-ds-config" data={{ publishableKey, redirectUrl, returnPath: `/orders/${order.id}/return` }} />
      <script src="/assets/three-ds.js" defer />
    </>
  );
  return (
    <Layout title="Confirm your payment" testId="payment-authenticate" payframeUrl={payframeUrl} head={head}>
      <h1>Confirm your payment</h1>
      <p>
        Your bank asks you to confirm this payment (order <span data-testid="order-id">{order.id}</span>).
      </p>
      <a class="button" href={redirectUrl} data-testid="open-authentication">
        Continue to 3-D Secure
      </a>
    </Layout>
  );
}

/** `/orders/:id/authenticate`: the dialog while 3-D Secure waits; once settled, on to the return URL. */
export async function authenticatePage(shop: Shop, request: ShopRequest): Promise<Reply> {
  const order = shop.orders.get(request.params[0] ?? '');
  if (!order) return notFound(shop, 'order');
  const charge = await shop.payframe.charges.retrieve(order.chargeId);
  if (charge.status !== 'PENDING' || charge.threedSecure.status !== 'PENDING') return redirect(`/orders/${order.id}/return`);
  return htmlReply(
    <AuthenticatePage order={order} redirectUrl={charge.threedSecure.redirect} publishableKey={shop.publishableKey} payframeUrl={shop.payframeUrl} />,
  );
}

export const authenticationFailedPage = (shop: Shop, order: Order): Reply =>
  htmlReply(<AuthenticationFailedPage order={order} payframeUrl={shop.payframeUrl} />);

/** `return_url`: Payframe sends the shopper here after 3-D Secure, with `charge_id` and `status`. */
export async function paymentReturn(shop: Shop, request: ShopRequest): Promise<Reply> {
  const order = shop.orders.get(request.params[0] ?? '');
  const chargeId = request.url.searchParams.get('charge_id');
  if (!order || (chargeId !== null && chargeId !== order.chargeId)) return notFound(shop, 'order');
  switch (await settle(shop, order)) {
    case 'failed':
      return authenticationFailedPage(shop, order);
    case 'awaiting-authentication': {
      const charge = await shop.payframe.charges.retrieve(order.chargeId);
      return htmlReply(<AwaitingAuthenticationPage order={order} redirectUrl={charge.threedSecure.redirect} payframeUrl={shop.payframeUrl} />);
    }
    default:
      return redirect(`/orders/${order.id}`);
  }
}
