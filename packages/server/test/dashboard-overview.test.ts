import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, authenticateCharge, type Client, captureCharge, chargeParams, createCharge, createToken, refundCharge, TEST_PANS } from './client.ts';
import { type DashboardClient, dashboardFixture } from './dashboard-support.ts';
import type { TestServer } from './harness.ts';

// The home page's figures (docs/dashboard.md, "Home") over real HTTP, on both stores (the
// server-postgres project runs this file too): known charges made through /v2 show in the daily counters.

let server: TestServer;
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
