import { join } from 'node:path';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { testCard } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningShop, startShop } from '../src/server.ts';
import { type DemoPayframe, startDemoPayframe } from './payframe-serve.ts';

let payframe: DemoPayframe;
let shop: RunningShop;

beforeAll(async () => {
  payframe = await startDemoPayframe();
  shop = await startShop({
    port: 0,
    host: '127.0.0.1',
    apiUrl: payframe.url,
    secretKey: payframe.secretKey,
    publishableKey: payframe.publishableKey,
    dataDir: join(payframe.dataDir, 'demo-shop'),
  });
});

afterAll(async () => {
  await shop?.close();
  await payframe?.stop();
});

/** Text of the first element with this data-testid, tags stripped (the shop's values carry no entities here). */
function testId(html: string, id: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]*data-testid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match?.[2]?.replace(/<[^>]*>/g, '');
}

const get = (path: string) => fetch(`${shop.url}${path}`, { redirect: 'manual' });
const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${shop.url}${path}`, { method: 'POST', body: new URLSearchParams(form), headers, redirect: 'manual' });

/** What the widget does in the shopper's browser: the card becomes a token, with the publishable key. */
async function cardToken(number: string): Promise<string> {
  const response = await fetch(`${payframe.url}/v2/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': payframe.publishableKey },
    body: JSON.stringify({
      card: testCard(number),
      shopper: { session_id: 'shop-test', email: 'ada@example.com' },
    }),
  });
  const body = (await response.json()) as { id?: string };
  if (!body.id) throw new Error(`token: ${response.status} ${JSON.stringify(body)}`);
  return body.id;
}

describe('the demo shop over HTTP, against a real payframe serve', () => {
  it('serves its pages as HTML under a CSP that names Payframe for scripts, frames and form posts', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy') ?? '';
    const origin = new URL(payframe.url).origin;
    expect(csp).toContain(`script-src 'self' ${origin}`);
    expect(csp).toContain(`form-action 'self' ${origin}`);
    expect(await response.text()).toContain('href="/products/mug"');
    expect(testId(await (await get('/products/mug')).text(), 'product-price')).toBe('€12.00');
  });

  it('answers an unknown page, product or order with its not-found page', async () => {
    for (const path of ['/nowhere', '/products/nothing', '/checkout?product=nothing', '/orders/ord_0000000000000000']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toContain('data-testid="not-found"');
    }
  });

  it('refuses a checkout posted from another site', async () => {
    const response = await post('/checkout', { product: 'mug', token: 'tok_x' }, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
  });

  it('asks for the card again when the form arrives without a token', async () => {
    const response = await post('/checkout', { product: 'mug', token: '' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('data-code="TOKEN_MISSING"');
  });

  it('says a declined card is declined, on the checkout page', async () => {
    const response = await post('/checkout', { product: 'mug', token: await cardToken(TEST_CARDS.declined.number) });
    expect(response.status).toBe(402);
    const html = await response.text();
    expect(testId(html, 'checkout-error')).toBe('Your card was declined. Try another card or contact your bank.');
    expect(html).toContain('data-decline-reason="GENERIC_DECLINE"');
  });

  it('charges, captures and refunds an order: checkout, receipt, refund, order list', async () => {
    const checkout = await post('/checkout', { product: 'hoodie', token: await cardToken(TEST_CARDS.visa.number) });
    expect(checkout.status).toBe(303);
    const receiptPath = checkout.headers.get('location') ?? '';
    expect(receiptPath).toMatch(/^\/orders\/ord_[0-9a-f]{16}$/);
    const receipt = await (await get(receiptPath)).text();
    expect(testId(receipt, 'receipt-status')).toBe('Paid');
    expect(testId(receipt, 'receipt-amount')).toBe('€45.00');

    const refund = await post(`${receiptPath}/refund`, { kind: 'partial', amount: '2.50' });
    expect(refund.status).toBe(303);
    const refunded = await (await get(refund.headers.get('location') ?? '')).text();
    expect(testId(refunded, 'refund-notice')).toBe('Refunded €2.50.');
    expect(testId(refunded, 'receipt-status')).toBe('Partially refunded');

    const tooMuch = await post(`${receiptPath}/refund`, { kind: 'partial', amount: '100' });
    expect(tooMuch.headers.get('location')).toBe(`${receiptPath}?error=AMOUNT_EXCEEDS_REMAINING`);

    const orders = await (await get('/orders')).text();
    const row = new RegExp(`<tr[^>]*data-order-id="${receiptPath.slice('/orders/'.length)}"[\\s\\S]*?</tr>`).exec(orders)?.[0] ?? '';
    expect(testId(row, 'order-status')).toBe('Partially refunded');
    expect(testId(row, 'order-refunded')).toBe('€2.50');
  });

  it('runs 3-D Secure in a dialog on its own page by default, and settles once Payframe has the answer', async () => {
    const checkout = await post('/checkout', { product: 'mug', token: await cardToken('4000000000003063') });
    expect(checkout.status).toBe(303);
    const authenticatePath = checkout.headers.get('location') ?? '';
    expect(authenticatePath).toMatch(/^\/orders\/ord_[0-9a-f]{16}\/authenticate$/);
    const page = await (await get(authenticatePath)).text();
    expect(page).toContain('<script src="/assets/three-ds.js" defer>');
    const config = JSON.parse(/<script id="three-ds-config" type="application\/json">([^<]*)<\/script>/.exec(page)?.[1] ?? '{}');
    expect(config.redirectUrl).toMatch(new RegExp(`^${payframe.url}/3d-secure/\\w+\\?paRes=`));
    expect(config.returnPath).toBe(authenticatePath.replace(/authenticate$/, 'return'));
    expect(page).toMatch(/data-testid="open-authentication"/);
    expect((await get('/assets/three-ds.js')).headers.get('content-type')).toBe('text/javascript; charset=utf-8');

    const chargeId = new URL(config.redirectUrl).pathname.split('/').pop();
    const settled = await fetch(`${payframe.url}/v2/test_helpers/charges/${chargeId}/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': payframe.secretKey },
      body: JSON.stringify({ result: 'success' }),
    });
    expect(settled.status).toBe(200);
    const after = await get(authenticatePath);
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe(config.returnPath);
  });

  it('keeps the full redirect to Payframe when told to', async () => {
    const redirecting = await startShop({
      port: 0,
      host: '127.0.0.1',
      apiUrl: payframe.url,
      secretKey: payframe.secretKey,
      publishableKey: payframe.publishableKey,
      dataDir: join(payframe.dataDir, 'demo-shop-redirect'),
      threeDSDisplay: 'redirect',
    });
    try {
      const response = await fetch(`${redirecting.url}/checkout`, {
        method: 'POST',
        body: new URLSearchParams({ product: 'mug', token: await cardToken(TEST_CARDS.visa3DS.number) }),
        redirect: 'manual',
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(new RegExp(`^${payframe.url}/3d-secure/\\w+\\?paRes=`));
    } finally {
      await redirecting.close();
    }
  });
});
