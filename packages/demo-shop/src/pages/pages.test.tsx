// @vitest-environment happy-dom
import { ISO_DIGITS_EXAMPLES, plainSpaces } from '@payframe/contract/money-format-examples';
import type { Charge } from '@payframe/node';
import { within } from '@testing-library/preact';
import type { JSX } from 'preact';
import { describe, expect, it } from 'vitest';
import { PRODUCTS, type Product } from '../catalog.ts';
import type { Order } from '../orders.ts';
import { renderDocument } from '../render.tsx';
import { CheckoutPage } from './checkout-page.tsx';
import { OrderList } from './orders.tsx';
import { AuthenticationFailedPage } from './payment-result.tsx';
import { ProductList, ProductPage } from './products.tsx';
import { ReceiptPage } from './receipt-page.tsx';

const payframeUrl = 'http://payframe.test';
const hostile = '<img src=x onerror=alert(1)>"\'&';

/** The page as a browser parses the served HTML, with Testing Library's queries on it. */
function parse(page: JSX.Element) {
  const html = renderDocument(page);
  const document = new DOMParser().parseFromString(html, 'text/html');
  return { html, document, screen: within(document.body) };
}

const order: Order = {
  id: 'ord_0123456789abcdef',
  product: 'mug',
  description: 'Payframe mug',
  amount: 1200,
  currency: 'EUR',
  chargeId: 'ch_1',
  created: Date.UTC(2026, 0, 2, 3, 4),
  authenticationFailed: false,
  refunds: [],
};

const charge = (overrides: Partial<Charge> = {}): Charge => ({
  type: 'charge',
  id: 'ch_1',
  amount: 1200,
  amount_captured: 1200,
  amount_refunded: 0,
  metadata: {},
  fees: 33,
  currency: 'EUR',
  description: 'Payframe mug',
  txn_reference: 'ord_1',
  status: 'CHARGE_SUCCESS',
  reason: null,
  threedSecure: { redirect: 'http://payframe.test/3d-secure/ch_1?paRes=x', returnUrl: 'http://shop.test/return', status: 'CAPTURED', transStatus: 'Y' },
  token: {
    type: 'token',
    id: '00000000-0000-4000-8000-000000000000',
    created: 1_767_322_000,
    card: {
      fundingType: 'CREDIT',
      country: 'US',
      last4Digits: '4242',
      type: 'VISA_CREDIT',
      brand: 'VISA',
      bank: 'Test Bank',
      name: 'Ada',
      authorization: 'NOT_AVAILABLE',
      addressLine1: null,
      addressLine2: null,
      addressCity: null,
      addressState: null,
      addressZip: null,
      addressCountry: null,
    },
  },
  created: 1_767_322_000,
  mode: 'test',
  ...overrides,
});

describe('the demo shop pages', () => {
  it('are whole documents that name Payframe for the widget and link the shop stylesheet only', () => {
    const { html, document } = parse(<ProductList products={PRODUCTS} payframeUrl={payframeUrl} />);
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(document.title).toBe('Products — Payframe Demo Shop');
    expect(document.querySelector('main')?.getAttribute('data-payframe-url')).toBe(payframeUrl);
    expect(document.querySelectorAll('style, script:not([src])')).toHaveLength(0);
  });

  it('list every product with its price and a link to its page', () => {
    const { screen } = parse(<ProductList products={PRODUCTS} payframeUrl={payframeUrl} />);
    expect(screen.getByTestId('product-link-mug').getAttribute('href')).toBe('/products/mug');
    expect(screen.getByTestId('product-hoodie').textContent).toContain('€45.00');
  });

  it('escape whatever a product or an order carries, in text and in attributes', () => {
    const product: Product = { slug: 'x"y', name: hostile, blurb: hostile, price: 100, currency: 'EUR' };
    const { document, screen } = parse(<ProductPage product={product} payframeUrl={payframeUrl} />);
    expect(screen.getByTestId('product-name').textContent).toBe(hostile);
    expect(screen.getByTestId('buy').getAttribute('href')).toBe('/checkout?product=x%22y');
    expect(document.querySelector('img')).toBeNull();
  });

  it('put the checkout config in a JSON block that cannot close its script element', () => {
    const { html, document } = parse(<CheckoutPage product={PRODUCTS[0]!} payframeUrl={payframeUrl} publishableKey="pk_</script><b>" />);
    expect(html).toContain('"pk_\\u003c/script>\\u003cb>"');
    expect(JSON.parse(document.getElementById('checkout-config')?.textContent ?? '')).toEqual({ publishableKey: 'pk_</script><b>' });
    expect(document.querySelector('script[src="http://payframe.test/v2/js/payframe.js"]')).not.toBeNull();
  });

  it('show a refused checkout with its code beside a disabled Pay button that names the amount', () => {
    const refusal = { message: 'Your card was declined.', code: 'DECLINED', declineReason: 'GENERIC_DECLINE' };
    const { screen } = parse(<CheckoutPage product={PRODUCTS[0]!} payframeUrl={payframeUrl} publishableKey="pk" refusal={refusal} />);
    const error = screen.getByTestId('checkout-error');
    expect(error.textContent).toBe('Your card was declined.');
    expect(error.getAttribute('data-decline-reason')).toBe('GENERIC_DECLINE');
    expect(screen.getByTestId('pay').textContent).toBe('Pay €12.00');
    expect(screen.getByTestId('pay').hasAttribute('disabled')).toBe(true);
    const form = screen.getByTestId('checkout-form');
    expect([...form.querySelectorAll('input')].map((input) => input.getAttribute('name'))).toEqual(['product', 'token']);
  });

  it('offer refunds of what is left, and none once the charge is refunded', () => {
    const partly = parse(
      <ReceiptPage
        order={order}
        charge={charge({ status: 'PARTIALLY_REFUNDED', amount_refunded: 250 })}
        query={new URLSearchParams()}
        payframeUrl={payframeUrl}
      />,
    );
    expect(partly.screen.getByTestId('refund-full').textContent).toBe('Refund €9.50 (everything left)');
    expect(partly.screen.getByTestId('receipt-status').getAttribute('data-state')).toBe('partially-refunded');
    expect(partly.screen.getByTestId('refund-amount').getAttribute('placeholder')).toBe('1.00');
    const done = parse(
      <ReceiptPage order={order} charge={charge({ status: 'REFUNDED', amount_refunded: 1200 })} query={new URLSearchParams()} payframeUrl={payframeUrl} />,
    );
    expect(done.screen.queryByTestId('refund-full')).toBeNull();
    expect(done.screen.getByTestId('receipt-status').textContent).toBe('Refunded');
  });

  it('say why a refund failed, from the code in the query, and never echo an unknown code as text', () => {
    const known = parse(
      <ReceiptPage order={order} charge={charge()} query={new URLSearchParams('error=AMOUNT_EXCEEDS_REMAINING')} payframeUrl={payframeUrl} />,
    );
    expect(known.screen.getByTestId('refund-error').textContent).toBe('That is more than what remains to refund.');
    const unknown = parse(<ReceiptPage order={order} charge={charge()} query={new URLSearchParams({ error: hostile })} payframeUrl={payframeUrl} />);
    expect(unknown.screen.getByTestId('refund-error').textContent).toBe('The refund could not be made.');
    expect(unknown.document.querySelector('img')).toBeNull();
  });

  it('link a failed authentication back to the checkout of the same product', () => {
    const { screen } = parse(<AuthenticationFailedPage order={order} payframeUrl={payframeUrl} />);
    expect(screen.getByTestId('payment-failed-message').textContent).toBe('Authentication failed, try another card.');
    expect(screen.getByTestId('try-another-card').getAttribute('href')).toBe('/checkout?product=mug');
  });

  it('list orders with their live status, and say so when Payframe did not answer', () => {
    const rows = [
      { order, charge: charge() },
      { order: { ...order, id: 'ord_fedcba9876543210', chargeId: 'ch_2' }, charge: undefined },
    ];
    const { screen } = parse(<OrderList rows={rows} payframeUrl={payframeUrl} />);
    const statuses = screen.getAllByTestId('order-status');
    expect(statuses.map((status) => status.textContent)).toEqual(['Paid', 'Unknown (Payframe did not answer)']);
    expect(screen.getAllByTestId('order-row')[0]?.textContent).toContain('2026-01-02 03:04');
    expect(parse(<OrderList rows={[]} payframeUrl={payframeUrl} />).screen.getByTestId('no-orders').textContent).toBe('No orders yet.');
  });
});

describe('amounts in the demo shop', () => {
  it.each(ISO_DIGITS_EXAMPLES)('show $amount $currency in ISO 4217 minor units, as the 3-D Secure page does: $text', ({ amount, currency, text }) => {
    const product: Product = { slug: 'p', name: 'P', blurb: '', price: amount, currency };
    const page = parse(<ProductPage product={product} payframeUrl={payframeUrl} />);
    expect(plainSpaces(page.screen.getByTestId('product-price').textContent ?? '')).toBe(text);
    const receipt = parse(
      <ReceiptPage order={{ ...order, currency }} charge={charge({ amount, currency })} query={new URLSearchParams()} payframeUrl={payframeUrl} />,
    );
    expect(plainSpaces(receipt.screen.getByTestId('receipt-amount').textContent ?? '')).toBe(text);
  });
});
