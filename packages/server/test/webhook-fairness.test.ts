import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, TEST_PANS } from './client.ts';
import { eventually, queryStore } from './database.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

/**
 * One account cannot starve another's webhooks (docs/webhooks.md, "Fair delivery"): at most 16
 * endpoints per account and mode, at most 4 attempts in flight per endpoint, and the sender's
 * slots shared across accounts.
 */

const MAX_ENDPOINTS = 16;
let server: InProcessTestServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  server = await startInProcess();
});
afterAll(async () => {
  await server?.stop();
  await Promise.all(receivers.map((receiver) => receiver.close()));
});

async function receiver(behaviour: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const started = await startReceiver(behaviour);
  receivers.push(started);
  return started;
}

async function addEndpoint(api: Client, url: string) {
  return api.post('/v2/webhook_endpoints', { url, events: ['charge.created'] });
}

describe('webhook endpoints per account and mode', () => {
  it('takes 16; the 17th is 400 LIMIT_EXCEEDED, while a deleted endpoint leaves room', async () => {
    const test = client(server, (await createKeys(server.dataDir, 'many-endpoints')).secretKey);
    const ids: string[] = [];
    for (let n = 0; n < MAX_ENDPOINTS; n++) {
      const created = await addEndpoint(test, `http://127.0.0.1:9/hooks/${n}`);
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.push(created.body.id);
    }
    expectError(await addEndpoint(test, 'http://127.0.0.1:9/hooks/17'), 400, 'LIMIT_EXCEEDED', { type: 'invalid_request_error' });
    expect((await test.request('DELETE', `/v2/webhook_endpoints/${ids[0]}`)).status).toBe(200);
    expect((await addEndpoint(test, 'http://127.0.0.1:9/hooks/again')).status).toBe(200);
    expectError(await addEndpoint(test, 'http://127.0.0.1:9/hooks/18'), 400, 'LIMIT_EXCEEDED');
  });

  it('holds the limit under concurrent creates', async () => {
    const test = client(server, (await createKeys(server.dataDir, 'racing-endpoints')).secretKey);
    const answers = await Promise.all(Array.from({ length: 24 }, (_, n) => addEndpoint(test, `http://127.0.0.1:9/hooks/${n}`)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(MAX_ENDPOINTS);
    for (const refused of answers.filter((answer) => answer.status !== 200)) expectError(refused, 400, 'LIMIT_EXCEEDED');
  });
});

describe('fair delivery', () => {
  it("an account with 16 hanging endpoints and a backlog does not delay another account's first delivery past 5 s", async () => {
    const hanging = await receiver(() => 'hang');
    const hog = client(server, (await createKeys(server.dataDir, 'hog')).secretKey);
    for (let n = 0; n < MAX_ENDPOINTS; n++) expect((await addEndpoint(hog, `${hanging.url}?endpoint=${n}`)).status).toBe(200);
    // 16 endpoints × 8 events: 128 deliveries due at once, each attempt hanging for the whole 10 s timeout.
    for (let n = 0; n < 8; n++) await createCharge(hog, TEST_PANS.visa);
    await eventually(async () => (hanging.received.length >= MAX_ENDPOINTS ? true : undefined), 5_000, 'the hanging attempts');

    const answered = await receiver(() => ({ status: 200 }));
    const other = client(server, (await createKeys(server.dataDir, 'patient')).secretKey);
    expect((await addEndpoint(other, answered.url)).status).toBe(200);
    const charge = await createCharge(other, TEST_PANS.visa);
    const committed = Date.now();
    const delivered = await eventually(async () => answered.received.find((entry) => entry.body.includes(charge.id)), 10_000, "the other account's delivery");
    expect(delivered.at - committed).toBeLessThan(5_000);

    // Meanwhile the hog holds at most 4 attempts per endpoint and 32 in all; none has been answered.
    expect(hanging.received.length).toBeLessThanOrEqual(32);
    const perEndpoint = await queryStore(
      server.dataDir,
      "select endpoint_id, count(*) as n from webhook_deliveries where status = 'pending' and lease_until > ? group by endpoint_id",
      [Date.now()],
    );
    expect(perEndpoint.length).toBeGreaterThan(0);
    for (const row of perEndpoint) expect(Number(row.n)).toBeLessThanOrEqual(4);
  });
});
