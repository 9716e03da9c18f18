import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { expect, test } from '@playwright/test';
import { type PayframeServer, startPayframe } from './support/payframe-server.ts';

// The checkout page of docs/widget.md, served as written (the host and key put in) under the
// documented CSP, from a merchant origin, against a real Payframe server.

const widgetDoc = readFileSync(new URL('../docs/widget.md', import.meta.url), 'utf8');

function block(language: string): string {
  const found = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(widgetDoc)?.[1];
  if (found === undefined) throw new Error(`docs/widget.md has no \`\`\`${language} block`);
  return found;
}

type Merchant = { url: string; tokens: string[]; stop(): Promise<void> };

/** The merchant's server: the two documented files, and a /pay that charges the token and sends the shopper on. */
async function startMerchant(payframe: PayframeServer): Promise<Merchant> {
  const fill = (text: string) => text.replaceAll('https://PAYFRAME_HOST', payframe.url).replaceAll('pk_test_…', payframe.keys.publishableKey);
  const html = fill(block('html'));
  const script = fill(block('js'));
  const [name, value] = fill(block('http'))
    .trim()
    .split(/:\s(.*)/s);
  if (name !== 'Content-Security-Policy' || !value) throw new Error('docs/widget.md: the ```http block is not one Content-Security-Policy header');
  const tokens: string[] = [];
  const server: Server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    if (request.url === '/checkout.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': value });
      response.end(html);
    } else if (request.url === '/checkout.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(script);
    } else if (request.url === '/pay' && request.method === 'POST') {
      const token = new URLSearchParams(body).get('token') ?? '';
      tokens.push(token);
      const charge = await fetch(`${payframe.url}/v2/charges`, {
        method: 'POST',
        headers: { 'x-api-key': payframe.keys.secretKey },
        body: new URLSearchParams({ token, amount: '1200', currency: 'EUR', description: 'Blue mug', return_url: `${url}/return` }),
      });
      const { threedSecure } = (await charge.json()) as { threedSecure: { redirect: string } };
      // Where a merchant sends the shopper to 3-D Secure: this redirect is what `form-action` must allow.
      response.writeHead(303, { location: threedSecure.redirect }).end();
    } else if (request.url === '/favicon.ico') {
      response.writeHead(204).end();
    } else {
      response.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  // `localhost` while Payframe is on 127.0.0.1: another origin, as a real merchant's would be.
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  return { url, tokens, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

let payframe: PayframeServer;
let merchant: Merchant;

test.beforeAll(async () => {
  payframe = await startPayframe();
  merchant = await startMerchant(payframe);
});
test.afterAll(async () => {
  await merchant?.stop();
  await payframe?.stop();
});

test('the checkout page of docs/widget.md gets a token under its CSP and reaches the 3-D Secure page', async ({ page }) => {
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));

  await page.goto(`${merchant.url}/checkout.html`);
  await expect(page.locator('#card')).toHaveAttribute('data-payframe-ready', /.*/);
  const frame = page.frameLocator('iframe[name="payframe-card"]');
  const year = String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0');
  await frame.getByTestId('card-number').pressSequentially(TEST_CARDS.visa.number);
  await frame.getByTestId('card-expiry').pressSequentially(`12${year}`);
  await frame.getByTestId('card-cvc').pressSequentially('123');
  await frame.getByTestId('card-name').fill('Ada Lovelace');
  await frame.getByTestId('email').fill('ada@example.com');
  await page.getByRole('button', { name: 'Pay' }).click();

  await expect(page.locator('main[data-page="not-needed"]')).toBeVisible();
  expect(new URL(page.url()).origin).toBe(payframe.url);
  expect(merchant.tokens).toHaveLength(1);
  const token = await fetch(`${payframe.url}/v2/tokens/${merchant.tokens[0]}`, { headers: { 'x-api-key': payframe.keys.secretKey } });
  expect(token.status).toBe(200);
  expect(await token.json()).toMatchObject({ type: 'token', card: { last4Digits: '4242', name: 'Ada Lovelace' } });
  expect(consoleErrors).toEqual([]);
});
