import { Payframe } from '@payframe/node';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { client, createCharge, TEST_PANS } from './client.ts';
import { eventually, queryStore } from './database.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';
import { type Behaviour, type Receiver, startReceiver } from './webhook-receiver.ts';

/**
 * Delivery over real HTTP to a real receiver, with a half-second retry schedule and a 2 s attempt
 * timeout: waiting out the contract's 10 s would prove nothing more than the shorter one does
 * (config.test.ts holds the default to the contract's 10 s).
 */
const RETRY_SECONDS = 0.5;
const TIMEOUT_MS = 2_000;

let server: InProcessTestServer;
let accounts = 0;

beforeAll(async () => {
  server = await startInProcess({
    env: { PAYFRAME_WEBHOOK_RETRY_SCHEDULE: Array(3).fill(RETRY_SECONDS).join(','), PAYFRAME_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
});
afterAll(() => server?.stop());

/**
 * A test's own account, so that its endpoints get only its own charges' events and the tests,
 * which spend their time waiting for retries, run side by side. Its receivers and endpoints go
 * when it ends, each endpoint first: nothing is delivered to a receiver that has closed.
 */
async function accountFor({ expect, onTestFinished }: TestContext) {
  const secretKey = (await createKeys(server.dataDir, `webhook-delivery-${++accounts}`)).secretKey;
  const api = client(server, secretKey);
  const endpoints: string[] = [];
  const receivers: Receiver[] = [];
  onTestFinished(async () => {
    for (const id of endpoints) expect((await api.request('DELETE', `/v2/webhook_endpoints/${id}`)).status).toBe(200);
    for (const receiver of receivers) await receiver.close();
  });

  async function deliveriesOf(eventId: string): Promise<any[]> {
    const response = await api.get(`/v2/events/${eventId}/deliveries`);
    expect(response.status).toBe(200);
    return response.body.data;
  }

  return {
    api,
    secretKey,
    /** A receiver of the test's own. */
    async listen(behaviour?: Behaviour): Promise<Receiver> {
      const receiver = await startReceiver(behaviour);
      receivers.push(receiver);
      return receiver;
    },
    /** An endpoint at `url` that takes only charge.created, so that each charge makes one delivery. */
    async endpointAt(url: string): Promise<{ id: string; secret: string }> {
      const created = await api.post('/v2/webhook_endpoints', { url, events: ['charge.created'] });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      endpoints.push(created.body.id);
      return created.body;
    },
    settled(eventId: string, endpointId: string, timeoutMs: number): Promise<any> {
      return eventually(
        async () => (await deliveriesOf(eventId)).find((delivery) => delivery.endpoint === endpointId && delivery.status !== 'pending'),
        timeoutMs,
        `delivery of ${eventId}`,
      );
    },
  };
}

async function createdEventOf(chargeId: string): Promise<string> {
  const rows = await queryStore(server.dataDir, "select id from events where charge_id = ? and name = 'charge.created'", [chargeId]);
  return String(rows[0]?.id);
}

async function attemptsOf(eventId: string, endpointId: string) {
  return queryStore(
    server.dataDir,
    'select attempt, status_code, error, duration_ms from webhook_attempts where delivery_id in (select id from webhook_deliveries where event_id = ? and endpoint_id = ?) order by attempt',
    [eventId, endpointId],
  );
}

describe.concurrent('webhook delivery', () => {
  it('fails twice, then 200: the same event three times, each signed for its own attempt; succeeded with attempts 3', async (test) => {
    const { expect } = test;
    const { api, secretKey, listen, endpointAt, settled } = await accountFor(test);
    const receiver = await listen((_request, n) => ({ status: n <= 2 ? 500 : 200 }));
    const endpoint = await endpointAt(receiver.url);
    const requested = Date.now();
    const charge = await createCharge(api, TEST_PANS.visa);
    const committed = Date.now();
    const eventId = await createdEventOf(charge.id);

    const delivery = await settled(eventId, endpoint.id, 20_000);
    // Its id: whd_, then the time it was queued (12 hex digits of milliseconds), then 12 random hex digits.
    const [stored] = await queryStore(server.dataDir, 'select id from webhook_deliveries where event_id = ? and endpoint_id = ?', [eventId, endpoint.id]);
    expect(String(stored?.id)).toMatch(/^whd_[0-9a-f]{24}$/);
    const queuedAt = parseInt(String(stored?.id).slice(4, 16), 16);
    expect(queuedAt).toBeGreaterThanOrEqual(requested);
    expect(queuedAt).toBeLessThanOrEqual(committed);
    // The first attempt starts within 2 s of the commit the API acknowledged.
    expect((receiver.received[0]?.at ?? Infinity) - committed).toBeLessThan(2_000);
    expect(delivery).toMatchObject({
      type: 'webhook_delivery',
      event: eventId,
      status: 'succeeded',
      attempts: 3,
      last_status_code: 200,
      last_error: null,
      next_attempt: null,
    });
    expect(receiver.received).toHaveLength(3);
    // Byte for byte what GET /v2/events/:id serves.
    const served = await (await server.fetch(`${server.url}/v2/events/${eventId}`, { headers: { 'x-api-key': secretKey } })).text();
    for (const request of receiver.received) {
      expect(request.id).toBe(eventId);
      expect(request.contentType).toBe('application/json');
      expect(request.body).toBe(served);
      expect(Math.abs(Number(request.timestamp) - request.at / 1000)).toBeLessThan(5);
      const headers = { 'webhook-id': request.id, 'webhook-timestamp': request.timestamp, 'webhook-signature': request.signature };
      expect(new Webhook(endpoint.secret).verify(request.body, headers)).toMatchObject({ id: eventId, name: 'charge.created' });
      expect(Payframe.webhooks.constructEvent(request.body, headers, endpoint.secret)).toMatchObject({ id: eventId, data: { object: { id: charge.id } } });
      expect(() => Payframe.webhooks.constructEvent(request.body.replace('charge', 'chargE'), headers, endpoint.secret)).toThrow();
    }
    // Retried as far apart as the schedule says (±10 %), never sooner.
    const [first, second, third] = receiver.received.map((request) => request.at);
    const soonest = RETRY_SECONDS * 1000 * 0.9 - 50;
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(soonest);
    expect((third ?? 0) - (second ?? 0)).toBeGreaterThanOrEqual(soonest);
    const attempts = await attemptsOf(eventId, endpoint.id);
    expect(attempts.map((row) => [Number(row.attempt), Number(row.status_code)])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it('a schedule of 3 entries allows 4 attempts, then the delivery has failed', async (test) => {
    const { expect } = test;
    const { api, listen, endpointAt, settled } = await accountFor(test);
    const receiver = await listen(() => ({ status: 503 }));
    const endpoint = await endpointAt(receiver.url);
    const eventId = await createdEventOf((await createCharge(api, TEST_PANS.visa)).id);
    const delivery = await settled(eventId, endpoint.id, 20_000);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 4, last_status_code: 503, last_error: 'HTTP 503', next_attempt: null });
    expect(receiver.received).toHaveLength(4);
  });

  it('a receiver that answers nothing within the attempt timeout has failed that attempt; the next one is made', async (test) => {
    const { expect } = test;
    const { api, listen, endpointAt, settled } = await accountFor(test);
    const receiver = await listen((_request, n) => (n === 1 ? 'hang' : { status: 204 }));
    const endpoint = await endpointAt(receiver.url);
    const eventId = await createdEventOf((await createCharge(api, TEST_PANS.visa)).id);
    const delivery = await settled(eventId, endpoint.id, 20_000);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 204 });
    const [first, second] = receiver.received.map((request) => request.at);
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(TIMEOUT_MS);
    const attempts = await attemptsOf(eventId, endpoint.id);
    expect(attempts[0]).toMatchObject({ status_code: null, error: `timeout: no answer within ${TIMEOUT_MS / 1000} s` });
    expect(Number(attempts[0]?.duration_ms)).toBeGreaterThanOrEqual(TIMEOUT_MS * 0.99);
  });

  it('a redirect is an answer, not followed: the target never hears of it and the attempt failed', async (test) => {
    const { expect } = test;
    const { api, listen, endpointAt, settled } = await accountFor(test);
    const target = await listen();
    const receiver = await listen(() => ({ status: 302, headers: { location: target.url } }));
    const endpoint = await endpointAt(receiver.url);
    const eventId = await createdEventOf((await createCharge(api, TEST_PANS.visa)).id);
    const delivery = await settled(eventId, endpoint.id, 20_000);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 4, last_status_code: 302, last_error: 'HTTP 302: redirects are not followed' });
    expect(receiver.received).toHaveLength(4);
    expect(target.received).toHaveLength(0);
  });

  it('a refused connection is a failed attempt, retried', async (test) => {
    const { expect } = test;
    const { api, endpointAt, settled } = await accountFor(test);
    const closed = await startReceiver();
    const url = closed.url;
    await closed.close();
    const endpoint = await endpointAt(url);
    const eventId = await createdEventOf((await createCharge(api, TEST_PANS.visa)).id);
    const delivery = await settled(eventId, endpoint.id, 20_000);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 4, last_status_code: null, last_error: 'connection refused' });
  });
});
