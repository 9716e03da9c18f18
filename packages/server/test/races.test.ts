import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byStatus, codesOf, concurrently, summary } from './bursts.ts';
import { type Client, chargeParams, client, createCharge, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';

const N = 20;

let server: TestServer;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  const keys = await createKeys(server.dataDir, 'races');
  api = client(server.url, keys.secretKey);
});
afterAll(() => server?.stop());

/** Starts every request before awaiting any: the promises are created in one synchronous loop. */
describe('concurrent requests over HTTP', () => {
  it(`${N} charges on one token: exactly one 200, ${N - 1} × 402 TOKEN_ALREADY_USED`, async () => {
    const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa));
    expect(token.status).toBe(200);
    const responses = await concurrently(N, (index) => api.post('/v2/charges', chargeParams(token.body.id, { description: `attempt ${index}` })));
    const groups = byStatus(responses);
    expect(groups[200]?.length, summary(responses)).toBe(1);
    expect(groups[402]?.length, summary(responses)).toBe(N - 1);
    expect(new Set(codesOf(groups[402] ?? []))).toEqual(new Set(['TOKEN_ALREADY_USED']));

    const winner = groups[200]![0]!.body;
    const stored = await api.get(`/v2/charges/${winner.id}`);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual(winner);
  });

  it(`${N} captures of one authorized charge: exactly one 200, ${N - 1} × 402 CHARGE_ALREADY_CAPTURED`, async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const auth = await api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'success' });
    expect(auth.body.threedSecure.status).toBe('CHARGEABLE');

    const responses = await concurrently(N, () => api.post(`/v2/charges/capture/${charge.id}`));
    const groups = byStatus(responses);
    expect(groups[200]?.length, summary(responses)).toBe(1);
    expect(groups[402]?.length, summary(responses)).toBe(N - 1);
    expect(new Set(codesOf(groups[402] ?? []))).toEqual(new Set(['CHARGE_ALREADY_CAPTURED']));

    const final = await api.get(`/v2/charges/${charge.id}`);
    expect(final.body).toMatchObject({ status: 'CHARGE_SUCCESS', threedSecure: { status: 'CAPTURED' }, fees: 33 });
    expect(final.body).toEqual(groups[200]![0]!.body);
  });

  it(`${N} refunds of 100 on a captured 500: exactly five 200, the rest 402, 500 refunded in all`, async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '500' });
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);

    const responses = await concurrently(N, () => api.post(`/v2/charges/refund/${charge.id}`, { amount: '100' }));
    const groups = byStatus(responses);
    expect(groups[200]?.length, summary(responses)).toBe(5);
    expect(groups[402]?.length, summary(responses)).toBe(N - 5);
    for (const code of codesOf(groups[402] ?? [])) expect(['AMOUNT_EXCEEDS_REMAINING', 'CHARGE_ALREADY_REFUNDED']).toContain(code);

    const refunds = (groups[200] ?? []).map((response) => response.body);
    expect(new Set(refunds.map((refund) => refund.id)).size).toBe(5);
    for (const refund of refunds) expect(refund).toMatchObject({ type: 'refund', charge: charge.id, amount: 100, status: 'REFUNDED' });

    const final = await api.get(`/v2/charges/${charge.id}`);
    expect(final.body).toMatchObject({ status: 'REFUNDED', amount_refunded: 500 });
    for (const refund of refunds) expect((await api.get(`/v2/charges/refund/${refund.id}`)).body).toEqual(refund);
  });

  it('concurrent charge requests with one Idempotency-Key make exactly one charge', async () => {
    for (const count of [2, 10]) {
      const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa));
      expect(token.status).toBe(200);
      const headers = { 'idempotency-key': `race-${token.body.id}` };
      const params = chargeParams(token.body.id);
      const responses = await concurrently(count, () => api.post('/v2/charges', params, { headers }));
      const groups = byStatus(responses);
      const ok = groups[200] ?? [];
      // Only two answers are right: the charge (done or replayed) or "still in flight". Never a second attempt.
      expect(ok.length, summary(responses)).toBeGreaterThanOrEqual(1);
      expect((groups[409]?.length ?? 0) + ok.length, summary(responses)).toBe(count);
      for (const code of codesOf(groups[409] ?? [])) expect(code).toBe('IDEMPOTENCY_CONFLICT');
      const ids = new Set(ok.map((response) => response.body.id));
      expect(ids.size, summary(responses)).toBe(1);
      for (const response of ok) expect(response.body).toEqual(ok[0]!.body);

      // Once it is done, the same key replays that one charge.
      const replay = await api.post('/v2/charges', params, { headers });
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(ok[0]!.body);
      // And the token was consumed by that one charge.
      const again = await api.post('/v2/charges', params, { headers: { 'idempotency-key': `other-${token.body.id}` } });
      expect(again.status).toBe(402);
      expect(again.body.error.code).toBe('TOKEN_ALREADY_USED');
    }
  });
});
