import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testCard } from '@payframe/contract/testing';
import { TEST_CARDS } from '@payframe/qa-kit';
import { expect, test } from '@playwright/test';
import { startDemoShop } from './support/demo-shop.ts';

// `npm start` itself: one command runs the API and the shop, Ctrl-C (SIGTERM here) stops both,
// and the next start finds the same demo account and the same orders.

test('npm start runs the API and the demo shop together, stops both, and a restart keeps the account and the orders', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payframe-start-e2e-'));
  const first = await startDemoShop(dataDir);
  expect(first.output()).toContain(`Payframe is running at ${first.apiUrl}`);
  expect(first.output()).toContain(`Test publishable key: ${first.keys.publishableKey}`);
  expect(first.output()).toContain(`Demo shop is running at ${first.url}`);
  expect(first.keys.secretKey).toMatch(/^sk_test_/);

  // The checkout page loads the widget from the API beside it, with the demo publishable key.
  const checkout = await (await fetch(`${first.url}/checkout?product=mug`)).text();
  expect(checkout).toContain(`<script src="${first.apiUrl}/v2/js/payframe.js"></script>`);
  expect(checkout).toContain(first.keys.publishableKey);
  expect(checkout).not.toContain(first.keys.secretKey);

  // An order placed the way the checkout form places it: a token, then the form's POST.
  const token = await first.api<{ id: string }>('/tokens', {
    card: testCard(TEST_CARDS.visa.number),
    shopper: { ip: '203.0.113.7', session_id: 'start-test', email: 'ada@example.com' },
  });
  const placed = await fetch(`${first.url}/checkout`, { method: 'POST', body: new URLSearchParams({ product: 'mug', token: token.id }), redirect: 'manual' });
  expect(placed.status).toBe(303);
  const orderId = /ord_[0-9a-f]{16}/.exec(placed.headers.get('location') ?? '')?.[0];
  expect(orderId).toBeDefined();

  expect(await first.stop()).toBe(0);
  await expect(fetch(`${first.apiUrl}/healthz`)).rejects.toThrow();
  await expect(fetch(`${first.url}/`)).rejects.toThrow();

  const second = await startDemoShop(dataDir);
  try {
    expect(second.keys).toEqual(first.keys);
    const orders = await (await fetch(`${second.url}/orders`)).text();
    expect(orders).toContain(`data-order-id="${orderId}"`);
    expect(orders).toContain('data-state="paid"');
  } finally {
    expect(await second.stop()).toBe(0);
  }
});
