import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { type PayframeServer, startPayframe } from './support/payframe-server.ts';

// The headers of the real `payframe serve`, with its app-wide helmet and no-store, as a browser gets them.
let payframe: PayframeServer;
test.beforeAll(async () => {
  payframe = await startPayframe();
});
test.afterAll(async () => {
  await payframe.stop();
});

test('payframe.js loads from any origin and is cached briefly', async ({ request }) => {
  const response = await request.get(`${payframe.url}/v2/js/payframe.js`);
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(headers['cross-origin-resource-policy']).toBe('cross-origin');
  expect(headers['cache-control']).toBe('public, max-age=300');
  expect(await response.text()).toContain('Payframe');
});

test('frame.html may be framed by any merchant and runs only the script and style inlined into it', async ({ request }) => {
  const response = await request.get(`${payframe.url}/v2/widget/frame.html`);
  const headers = response.headers();
  expect(headers['x-frame-options']).toBeUndefined();
  const csp = headers['content-security-policy'] ?? '';
  expect(csp).toContain('frame-ancestors *');
  expect(csp).toContain("default-src 'self'");
  expect(csp).not.toContain('unsafe');
  const page = await response.text();
  const hashOf = (text: string | undefined) =>
    `'sha256-${createHash('sha256')
      .update(text ?? '')
      .digest('base64')}'`;
  // One round trip: nothing of its own to fetch, and the policy names exactly what is inline.
  expect(page).not.toMatch(/<script[^>]* src=|<link[^>]* rel="stylesheet"/);
  expect(csp).toContain(`script-src ${hashOf(page.match(/<script type="module">([\s\S]*?)<\/script>/)?.[1])};`);
  expect(csp).toContain(`style-src ${hashOf(page.match(/<style>([\s\S]*?)<\/style>/)?.[1])};`);
});

test("the build's gzip variants are served to clients that take gzip, with the same headers", async ({ request }) => {
  const response = await request.get(`${payframe.url}/v2/js/payframe.js`, { headers: { 'accept-encoding': 'gzip' } });
  expect(response.status()).toBe(200);
  const headers = response.headers();
  expect(headers['content-encoding']).toBe('gzip');
  expect(headers.vary).toContain('accept-encoding');
  expect(headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(headers['cache-control']).toBe('public, max-age=300');
  expect(await response.text()).toContain('Payframe');
});
