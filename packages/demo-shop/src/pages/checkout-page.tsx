import type { Product } from '../catalog.ts';
import { formatMoney } from '../money.ts';
import { JsonBlock } from '../render.tsx';
import { Layout } from './layout.tsx';

/** Why the last attempt was refused, shown beside the Pay button (and kept in data attributes for tests). */
export type Refusal = { message: string; code: string; declineReason: string | undefined };

type CheckoutProps = { product: Product; payframeUrl: string; publishableKey: string; refusal?: Refusal | undefined };

/** The checkout: the Payframe card widget (with its e-mail field) inside the shop's own form. */
export function CheckoutPage({ product, payframeUrl, publishableKey, refusal }: CheckoutProps) {
  const amount = formatMoney(product.price, product.currency);
  const head = (
    <>
      <script src={`${payframeUrl}/v2/js/payframe.js`} />
      <JsonBlock id="checkout-config" data={{ publishableKey }} />
      <script src="/assets/checkout.js" defer />
    </>
  );
  return (
    <Layout title="Checkout" testId="checkout" payframeUrl={payframeUrl} head={head}>
      <h1>Checkout</h1>
      <p class="summary" data-testid="checkout-summary">
        <span data-testid="checkout-product">{product.name}</span> — <strong data-testid="checkout-amount">{amount}</strong>
      </p>
      <form id="checkout-form" method="post" action="/checkout" data-testid="checkout-form">
        <input type="hidden" name="product" value={product.slug} />
        <input type="hidden" name="token" value="" />
        <div id="card" data-testid="card-host" />
        <p
          id="checkout-error"
          class="error"
          role="alert"
          data-testid="checkout-error"
          data-code={refusal?.code ?? ''}
          data-decline-reason={refusal?.declineReason ?? ''}
        >
          {refusal?.message ?? ''}
        </p>
        <button id="pay" type="submit" data-testid="pay" disabled>
          Pay {amount}
        </button>
      </form>
      <p class="hint">Test mode: try 4242 4242 4242 4242 with any future expiry and any CVC.</p>
    </Layout>
  );
}
