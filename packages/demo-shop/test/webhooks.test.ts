import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { testCard } from '@payframe/contract/testing';
import { signWebhook } from '@payframe/contract/webhook-signing';
import { type Charge, Payframe } from '@payframe/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../src/orders.ts';
import { type RunningShop, startShop } from '../src/server.ts';
import { type DemoPayframe, startDemoPayframe } from './payframe-serve.ts';

/** The shop's own webhook endpoint, fed by a real server's delivery worker. */

let payframe: DemoPayframe;
let shop: RunningShop;
let sdk: Payframe;
let shopDataDir: string;

beforeAll(async () => {
  payframe = await startDemoPayframe();
  shopDataDir = join(payframe.dataDir, 'demo-shop');
  shop = await startShop({
    port: 0,
    host: '127.0.0.1',
    apiUrl: payframe.url,
    secretKey: payframe.secretKey,
    publishableKey: payframe.publishableKey,
    dataDir: shopDataDir,
    // The checkout answers with the hosted page's URL, which names the charge.
    threeDSDisplay: 'redirect',
  });
  sdk = new Payframe(payframe.secretKey, { apiBase: payframe.url });
});

afterAll(async () => {
  await shop?.close();
  await payframe?.stop();
});

async function checkout(number: string): Promise<{ orderId: string; chargeId: string }> {
  const token = await new Payframe(payframe.publishableKey, { apiBase: payframe.url }).tokens.create({
    card: testCard(number),
    shopper: { session_id: 'shop-webhooks', email: 'ada@example.com' },
  });
  const response = await fetch(`${shop.url}/checkout`, { method: 'POST', body: new URLSearchParams({ product: 'mug', token: token.id }), redirect: 'manual' });
  expect(response.status).toBe(303);
  // To the hosted 3-D Secure page, whose path ends with the charge id.
  const chargeId = new URL(response.headers.get('location') ?? '').pathname.split('/').pop() ?? '';
  const orders = JSON.parse(await readFile(join(shopDataDir, 'orders.json'), 'utf8')) as Order[];
  const order = orders.find((candidate) => candidate.chargeId === chargeId);
  if (!order) throw new Error(`no order for charge ${chargeId}`);
  return { orderId: order.id, chargeId };
}

async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the demo shop receives Payframe webhooks', () => {
  it('registers /webhooks/payframe for the events it acts on, at start', async () => {
    const endpoints = await sdk.webhookEndpoints.list();
    expect(endpoints.data.map((endpoint) => [endpoint.url, endpoint.events])).toEqual([
      [`${shop.url}/webhooks/payframe`, ['charge.authentication_succeeded', 'charge.authentication_unavailable', 'charge.expired']],
    ]);
  });

  it('captures an order whose shopper authenticated 3-D Secure and never came back', async () => {
    const { chargeId, orderId } = await checkout(TEST_CARDS.visa3DS.number);
    // The shopper completes 3-D Secure; nothing ever requests the shop's return URL.
    await sdk.testHelpers.authenticate(chargeId, { result: 'success' });
    const charge = await eventually(
      () => sdk.charges.retrieve(chargeId),
      (value: Charge) => value.status === 'CHARGE_SUCCESS',
    );
    expect(charge).toMatchObject({ status: 'CHARGE_SUCCESS', threedSecure: { status: 'CAPTURED' } });
    const page = await (await fetch(`${shop.url}/orders/${orderId}`)).text();
    expect(page).toMatch(/data-testid="receipt-status"[^>]*>Paid</);
  });

  it('refuses a delivery with a bad signature, and answers a repeated one without acting twice', async () => {
    const { secret } = JSON.parse(await readFile(join(shopDataDir, 'webhook-endpoint.json'), 'utf8')) as { secret: string };
    const body = JSON.stringify({ type: 'event', id: 'evt_repeat', name: 'charge.expired', created: 1, mode: 'test', data: { object: { id: 'C0' } } });
    const send = (headers: Record<string, string>) =>
      fetch(`${shop.url}/webhooks/payframe`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    const signed = signWebhook(secret, { id: 'evt_repeat', timestamp: Math.floor(Date.now() / 1000), body });
    // One character of the signature changed (to another one: a signature may begin with A already).
    const forged = signed['webhook-signature'].replace(/^v1,(.)/, (_match, first: string) => `v1,${first === 'A' ? 'B' : 'A'}`);
    expect(forged).not.toBe(signed['webhook-signature']);
    expect((await send({ ...signed, 'webhook-signature': forged })).status).toBe(400);
    const first = await send(signed);
    expect([first.status, await first.text()]).toEqual([200, 'ok']);
    const again = await send(signed);
    expect([again.status, await again.text()]).toEqual([200, 'already handled']);
  });

  it('marks an order expired when its charge expires uncaptured', async () => {
    const { orderId, chargeId } = await checkout(TEST_CARDS.visa3DS.number);
    await sdk.testHelpers.clock.advance({ advance_seconds: 8 * 24 * 3600 });
    const expired = await eventually(
      async () => (JSON.parse(await readFile(join(shopDataDir, 'orders.json'), 'utf8')) as Order[]).find((order) => order.id === orderId),
      (order) => order?.expired === true,
    );
    expect(expired?.expired).toBe(true);
    expect(await sdk.charges.retrieve(chargeId)).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED' });
  });
});
