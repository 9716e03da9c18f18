import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteRequestLog } from '../src/background/jobs/delete-request-log.ts';
import {
  advanceClock,
  authenticateCharge,
  type Client,
  captureCharge,
  chargeParams,
  createCharge,
  createToken,
  refundCharge,
  TEST_PANS,
  tokenParams,
} from './client.ts';
import { type DashboardClient, dashboardFixture } from './dashboard-support.ts';
import { type InProcessTestServer, withStoreOf } from './harness.ts';
import { readStore } from './store-contents.ts';

// The home page's figures and the request log (docs/dashboard.md, "Home", "Request log") over real
// HTTP, on both stores (the server-postgres project runs this file too): known charges made through
// /v2 show in the daily counters, and known requests in the log, without their card data.

let server: InProcessTestServer;
let api: Client;
let admin: DashboardClient;

beforeAll(async () => {
  ({ server, api, admin } = await dashboardFixture('overview-shop'));
});
afterAll(() => server?.stop());

const DAY_SECONDS = 24 * 60 * 60;

async function declined(number: string): Promise<void> {
  const token = await createToken(api, number);
  expect((await api.post('/v2/charges', chargeParams(token.id, { amount: '700', currency: 'EUR' }))).status).toBe(402);
}

describe('the overview', () => {
  it('counts creations, captures (partial ones by what was captured), refunds, declines and 3-D Secure outcomes', async () => {
    const empty = await admin.get('/overview?mode=test&period=7d');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ created: 0, succeeded: 0, success_rate: null, volume: [] });

    const whole = await createCharge(api, TEST_PANS.visa, { amount: '1000', currency: 'EUR' });
    await captureCharge(api, whole.id);
    const part = await createCharge(api, TEST_PANS.visa, { amount: '2000', currency: 'EUR' });
    expect((await api.post(`/v2/charges/capture/${part.id}`, { amount: '500' })).status).toBe(200);
    const refunded = await createCharge(api, TEST_PANS.mastercardDebit, { amount: '1500', currency: 'USD' });
    await captureCharge(api, refunded.id);
    await refundCharge(api, refunded.id, 300);
    // A release of an uncaptured charge is no refund.
    await refundCharge(api, (await createCharge(api, TEST_PANS.visa, { amount: '900', currency: 'GBP' })).id);
    await authenticateCharge(api, (await createCharge(api, TEST_PANS.visa3ds, { amount: '100', currency: 'EUR' })).id, 'success');
    await authenticateCharge(api, (await createCharge(api, TEST_PANS.visa3ds, { amount: '100', currency: 'EUR' })).id, 'failure');
    await declined(TEST_PANS.declined);
    await declined(TEST_PANS.insufficientFunds);
    await declined(TEST_PANS.insufficientFunds);

    const week = await admin.get('/overview?mode=test&period=7d');
    expect(week.status).toBe(200);
    expect(week.body).toMatchObject({
      mode: 'test',
      period: '7d',
      created: 6,
      succeeded: 3,
      success_rate: 0.5,
      volume: [
        { currency: 'EUR', amount: 1500 },
        { currency: 'USD', amount: 1500 },
      ],
      refunds: { count: 1, amount: [{ currency: 'USD', amount: 300 }] },
      declines: [
        { reason: 'INSUFFICIENT_FUNDS', count: 2 },
        { reason: 'GENERIC_DECLINE', count: 1 },
      ],
      threeds: [
        { status: 'Y', count: 1 },
        { status: 'N', count: 1 },
        { status: 'R', count: 0 },
        { status: 'U', count: 0 },
      ],
    });
    expect(week.body.days).toHaveLength(7);
    expect(week.body.days.at(-1)).toMatchObject({ date: week.body.to, succeeded: 3 });
    // The live mode has nothing of it.
    expect((await admin.get('/overview?mode=live&period=7d')).body).toMatchObject({ created: 0, volume: [], declines: [] });
  });

  it('keeps days on the test clock: moved two days on, today is empty and the charges are two days back', async () => {
    const before = (await admin.get('/overview?mode=test&period=30d')).body;
    await advanceClock(api, 2 * DAY_SECONDS);
    const today = await admin.get('/overview?mode=test&period=today');
    expect(today.body).toMatchObject({ created: 0, succeeded: 0, days: [{ succeeded: 0 }] });
    const month = (await admin.get('/overview?mode=test&period=30d')).body;
    expect(month.days).toHaveLength(30);
    expect(month.created).toBe(before.created);
    expect(month.days.at(-3).succeeded).toBe(before.days.at(-1).succeeded);
  });

  it('refuses an unknown period as a parameter error', async () => {
    const answer = await admin.get('/overview?mode=test&period=year');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'PARAMETER_INVALID', parameter: 'period' });
  });
});

/** A card number and CVC sent by this file only, to search the store for. */
const PAN = '5200828282828210';
const CVC = '0987';

/** The log is written a few milliseconds after the answer: reads until the entry is there. */
async function logged(requestId: string) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const answer = await admin.get(`/request_log/${requestId}?mode=test`);
    if (answer.status === 200 || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the request log', () => {
  it('keeps each /v2 request with its Request-Id, key hint and Idempotency-Key, and never the card number or CVC', async () => {
    const params = tokenParams(PAN) as { card: Record<string, string> };
    const made = await api.post('/v2/tokens', { ...params, card: { ...params.card, cvc: CVC } }, { headers: { 'idempotency-key': 'log-key-1' } });
    expect(made.status).toBe(200);
    const requestId = made.headers.get('request-id') ?? '';
    expect(requestId).toMatch(/^req_/);
    const missing = await api.get('/v2/charges/C00000000000000000000000000000000000');
    expect(missing.status).toBe(404);

    const detail = await logged(requestId);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      id: requestId,
      method: 'POST',
      path: '/v2/tokens',
      status: 200,
      idempotency_key: 'log-key-1',
      key_hint: expect.stringMatching(/^sk_test_…/),
      request: { body: { card: { number: '[redacted]', cvc: '[redacted]', exp_month: '12' } } },
      response: { id: made.body.id, card: { last4Digits: '8210' } },
    });
    const missingId = missing.headers.get('request-id') ?? '';
    const missingEntry = (await logged(missingId)).body;
    expect(missingEntry).toMatchObject({ status: 404, path: '/v2/charges/C00000000000000000000000000000000000' });
    expect(missingEntry.request).toEqual({ query: {}, body: {} });
    const listed = (await logged((await api.get('/v2/charges?limit=2')).headers.get('request-id') ?? '')).body;
    expect(listed).toMatchObject({ path: '/v2/charges' });
    expect(listed.request).toEqual({ query: { limit: '2' }, body: {} });

    const failures = await admin.get('/request_log?mode=test&status=4xx&limit=100');
    expect(failures.body.data.map((entry: { id: string }) => entry.id)).toContain(missingId);
    expect(failures.body.data.every((entry: { status: number }) => entry.status >= 400 && entry.status < 500)).toBe(true);
    const tokens = await admin.get('/request_log?mode=test&path=/v2/tokens&limit=100');
    expect(tokens.body.data.map((entry: { id: string }) => entry.id)).toContain(requestId);
    expect(tokens.body.data.every((entry: { path: string }) => entry.path.startsWith('/v2/tokens'))).toBe(true);
    expect((await admin.get('/request_log?mode=live')).body.data).toEqual([]);
    expect((await admin.get(`/request_log/${requestId}?mode=live`)).status).toBe(404);

    // Pages: newest first, one at a time.
    const first = await admin.get('/request_log?mode=test&limit=1');
    expect(first.body).toMatchObject({ type: 'list', has_more: true });
    const second = await admin.get(`/request_log?mode=test&limit=1&starting_after=${first.body.data[0].id}`);
    expect(second.body.data[0].created).toBeLessThanOrEqual(first.body.data[0].created);
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);

    for (const [where, bytes] of await readStore(server.dataDir)) {
      const text = bytes.toString('latin1');
      expect(text.includes(PAN), `${PAN} in ${where}`).toBe(false);
      expect(new RegExp(`(?<![0-9A-Za-z.+/_-])${CVC}(?![0-9A-Za-z.+/_-])`).test(text), `CVC in ${where}`).toBe(false);
    }
  });

  it('is emptied of entries older than 7 days by the sweeper', async () => {
    expect((await admin.get('/request_log?mode=test')).body.data.length).toBeGreaterThan(0);
    const eightDaysOn = Date.now() + 8 * DAY_SECONDS * 1000;
    const deleted = await withStoreOf(server.dataDir, (store) => store.transaction((tx) => deleteRequestLog.run(tx, eightDaysOn, undefined as never)));
    expect(deleted).toBeGreaterThan(0);
    // The requests of this check are themselves new entries: none older than them remains.
    const left = (await admin.get('/request_log?mode=test&limit=100')).body.data;
    expect(left.every((entry: { created: number }) => entry.created > eightDaysOn - 8 * DAY_SECONDS * 1000)).toBe(true);
  });
});
