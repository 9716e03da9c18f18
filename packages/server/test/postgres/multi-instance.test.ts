import { randomUUID } from 'node:crypto';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byStatus, codesOf, concurrently, summary } from '../bursts.ts';
import { type ApiResponse, type Client, chargeParams, client, createCharge, TEST_PANS, tokenParams } from '../client.ts';
import { cli, createKeys, createKeysWithCli, type Keys, startServer, storeArgs, type TestServer } from '../harness.ts';
import { withinPropagation } from '../propagation.ts';
import { databaseUrlOf, requirePostgres, withDatabase } from './support.ts';

/**
 * docs/design.md "Scale-out on PostgreSQL": identical, stateless instances in front of PostgreSQL,
 * race safety from the database alone. Three real server processes share one database (and one data directory, hence one
 * master key); every concurrent burst is spread over all three.
 */

const N = 40;
const SEVEN_DAYS = 604_800;
/** Instances behind one load balancer share one public URL: the 3-D Secure links they make are then identical. */
const PUBLIC_URL = 'https://pay.example.test';

let servers: TestServer[] = [];
let keys: Keys;
/** One client per instance, all with the same secret key. */
let apis: Client[];
/** Every response seen by a test, to check that no request ever met a server fault. */
const seen: ApiResponse[] = [];

/** The instance of request `index`: round robin over all of them. */
const on = (index: number): Client => apis[index % apis.length]!;

function record<T extends ApiResponse>(responses: T[]): T[] {
  seen.push(...responses);
  return responses;
}

beforeAll(async () => {
  requirePostgres();
  const args = ['--public-url', PUBLIC_URL];
  const first = await startServer({ args });
  servers = [first, ...(await Promise.all([startServer({ dataDir: first.dataDir, args }), startServer({ dataDir: first.dataDir, args })]))];
  keys = await createKeys(first.dataDir, 'multi-instance');
  apis = servers.map((server) => client(server.url, keys.secretKey));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

describe('three instances on one PostgreSQL database', () => {
  it('are three processes on one database', () => {
    expect(new Set(servers.map((server) => server.url)).size).toBe(3);
    expect(new Set(servers.map((server) => server.dataDir)).size).toBe(1);
  });

  it(`${N} concurrent charges on one token, across instances: exactly one 200, ${N - 1} × 402 TOKEN_ALREADY_USED`, async () => {
    const token = await on(0).post('/v2/tokens', tokenParams(TEST_PANS.visa));
    expect(token.status, JSON.stringify(token.body)).toBe(200);

    const responses = record(await concurrently(N, (index) => on(index).post('/v2/charges', chargeParams(token.body.id, { description: `attempt ${index}` }))));
    const groups = byStatus(responses);
    expect(groups[200]?.length, summary(responses)).toBe(1);
    expect(groups[402]?.length, summary(responses)).toBe(N - 1);
    expect(new Set(codesOf(groups[402] ?? []))).toEqual(new Set(['TOKEN_ALREADY_USED']));

    // Every instance reads the one winner as it was answered, 3-D Secure link included (one master key).
    const winner = groups[200]![0]!.body;
    expect(winner.threedSecure.redirect).toMatch(new RegExp(`^${PUBLIC_URL}/3d-secure/${winner.id}\\?paRes=`));
    for (const api of apis) expect((await api.get(`/v2/charges/${winner.id}`)).body).toEqual(winner);

    const databaseUrl = await databaseUrlOf(servers[0]!.dataDir);
    const { rows } = await withDatabase(databaseUrl, (db) => db.query<{ count: string }>('select count(*) from charges where token_id = $1', [token.body.id]));
    expect(Number(rows[0]?.count)).toBe(1);
  });

  it(`${N} concurrent captures of one charge, across instances: exactly one 200, ${N - 1} × 402 CHARGE_ALREADY_CAPTURED`, async () => {
    const charge = await createCharge(on(0), TEST_PANS.visa3ds);
    const auth = await on(1).post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'success' });
    expect(auth.body?.threedSecure?.status, JSON.stringify(auth.body)).toBe('CHARGEABLE');

    const responses = record(await concurrently(N, (index) => on(index).post(`/v2/charges/capture/${charge.id}`)));
    const groups = byStatus(responses);
    expect(groups[200]?.length, summary(responses)).toBe(1);
    expect(groups[402]?.length, summary(responses)).toBe(N - 1);
    expect(new Set(codesOf(groups[402] ?? []))).toEqual(new Set(['CHARGE_ALREADY_CAPTURED']));

    const captured = groups[200]![0]!.body;
    expect(captured).toMatchObject({ status: 'CHARGE_SUCCESS', threedSecure: { status: 'CAPTURED' }, fees: 33 });
    for (const api of apis) expect((await api.get(`/v2/charges/${charge.id}`)).body).toEqual(captured);
  });

  it("the bank-app card's waiting page, once approved, refreshed on every instance at once: exactly one 303 to the shop", async () => {
    const charge = await createCharge(on(0), TEST_PANS.outOfBand3ds, { return_url: 'https://shop.example/return' });
    // The same link served by instance `index` (the public URL names the load balancer in front of them).
    const link = (index: number, path = '') =>
      charge.threedSecure.redirect.replace(`${PUBLIC_URL}/3d-secure/${charge.id}`, `${servers[index % servers.length]!.url}/3d-secure/${charge.id}${path}`);
    const paRes = new URL(charge.threedSecure.redirect).searchParams.get('paRes') ?? '';
    const approved = await fetch(link(1, '/device'), { method: 'POST', body: new URLSearchParams({ paRes, result: 'success' }) });
    expect(approved.status).toBe(200);

    const views = await Promise.all(Array.from({ length: 12 }, (_, index) => fetch(link(index), { redirect: 'manual' })));
    const statuses = views.map((view) => view.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 303]);
    expect(views.find((view) => view.status === 303)?.headers.get('location')).toBe(`https://shop.example/return?charge_id=${charge.id}&status=CHARGEABLE`);
  });

  it('30 concurrent refunds of 100 on a captured 1000, across instances: exactly 10 succeed and 1000 is refunded, never more', async () => {
    const charge = await createCharge(on(0), TEST_PANS.visa, { amount: '1000' });
    expect((await on(2).post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);

    const responses = record(await concurrently(30, (index) => on(index).post(`/v2/charges/refund/${charge.id}`, { amount: '100' })));
    const groups = byStatus(responses);
    expect(groups[200]?.length, summary(responses)).toBe(10);
    expect(groups[402]?.length, summary(responses)).toBe(20);
    for (const code of codesOf(groups[402] ?? [])) expect(['AMOUNT_EXCEEDS_REMAINING', 'CHARGE_ALREADY_REFUNDED']).toContain(code);

    const refunds = (groups[200] ?? []).map((response) => response.body);
    expect(new Set(refunds.map((refund) => refund.id)).size).toBe(10);
    for (const refund of refunds) expect(refund).toMatchObject({ type: 'refund', charge: charge.id, amount: 100, status: 'REFUNDED' });

    for (const api of apis) {
      expect((await api.get(`/v2/charges/${charge.id}`)).body).toMatchObject({ status: 'REFUNDED', amount_refunded: 1000 });
    }
    // Each refund answered is stored as answered, readable by id from any instance; together they make 1000.
    let total = 0;
    for (const [index, refund] of refunds.entries()) {
      const stored = await on(index).get(`/v2/charges/refund/${refund.id}`);
      expect(stored.body).toEqual(refund);
      total += stored.body.amount as number;
    }
    expect(total).toBe(1000);

    const databaseUrl = await databaseUrlOf(servers[0]!.dataDir);
    const { rows } = await withDatabase(databaseUrl, (db) =>
      db.query<{ count: string; total: string }>('select count(*), coalesce(sum(amount), 0) as total from refunds where charge_id = $1', [charge.id]),
    );
    expect({ count: Number(rows[0]?.count), total: Number(rows[0]?.total) }).toEqual({ count: 10, total: 1000 });
  });

  it('one Idempotency-Key sent to several instances at once makes exactly one charge', async () => {
    for (const count of [2, 2, 2, 3, 9]) {
      const token = await on(0).post('/v2/tokens', tokenParams(TEST_PANS.visa));
      expect(token.status).toBe(200);
      const headers = { 'idempotency-key': `multi-${randomUUID()}` };
      const params = chargeParams(token.body.id);

      const responses = record(await concurrently(count, (index) => on(index).post('/v2/charges', params, { headers })));
      const groups = byStatus(responses);
      const ok = groups[200] ?? [];
      // Only two answers are right: the charge (done or replayed) or "still in flight". Never a second attempt.
      expect(ok.length, summary(responses)).toBeGreaterThanOrEqual(1);
      expect((groups[409]?.length ?? 0) + ok.length, summary(responses)).toBe(count);
      for (const code of codesOf(groups[409] ?? [])) expect(code).toBe('IDEMPOTENCY_CONFLICT');
      expect(new Set(ok.map((response) => response.body.id)).size, summary(responses)).toBe(1);
      for (const response of ok) expect(response.body).toEqual(ok[0]!.body);

      // Once done, every instance replays that one charge.
      for (const api of apis) {
        const replay = await api.post('/v2/charges', params, { headers });
        expect(replay.status, JSON.stringify(replay.body)).toBe(200);
        expect(replay.body).toEqual(ok[0]!.body);
      }
      // The token was used once, by that charge.
      expectError(await on(1).post('/v2/charges', params, { headers: { 'idempotency-key': `other-${randomUUID()}` } }), 402, 'TOKEN_ALREADY_USED');
      const databaseUrl = await databaseUrlOf(servers[0]!.dataDir);
      const { rows } = await withDatabase(databaseUrl, (db) => db.query<{ id: string }>('select id from charges where token_id = $1', [token.body.id]));
      expect(rows.map((row) => row.id)).toEqual([ok[0]!.body.id]);
    }
  });

  it('a key created with the CLI is accepted by every instance at once, and refused by every instance within a second of its revocation', async () => {
    const fresh = await createKeysWithCli(servers[0]!.dataDir, 'multi-instance-keys');
    // Right after the CLI returns: no instance has seen this key before.
    const accepted = record(await concurrently(3, (index) => client(servers[index]!.url, fresh.secretKey).get('/v2/test_helpers/clock')));
    for (const response of accepted) expect(response.status, JSON.stringify(response.body)).toBe(200);
    const token = await client(servers[1]!.url, fresh.publishableKey).post('/v2/tokens', tokenParams(TEST_PANS.visa));
    expect(token.status, JSON.stringify(token.body)).toBe(200);

    const revoked = await cli(['keys', 'revoke', fresh.secretKey, '--json', ...(await storeArgs(servers[0]!.dataDir))]);
    expect(revoked, revoked.stderr).toMatchObject({ code: 0 });
    expect(JSON.parse(revoked.stdout)).toEqual({ revoked: true });

    // Every instance used the key a moment ago (and caches it); every one refuses it within a second.
    const settled = await Promise.all(
      servers.map((server) =>
        withinPropagation(
          () => client(server.url, fresh.secretKey).get('/v2/test_helpers/clock'),
          (response) => response.status === 401,
        ),
      ),
    );
    for (const response of settled) expectError(response, 401, 'INVALID_API_KEY');
    const refused = record(
      await concurrently(6, (index) =>
        index % 2 === 0
          ? client(servers[index % 3]!.url, fresh.secretKey).get('/v2/test_helpers/clock')
          : client(servers[index % 3]!.url, fresh.secretKey).post('/v2/charges', chargeParams(token.body.id)),
      ),
    );
    for (const response of refused) expectError(response, 401, 'INVALID_API_KEY');
    // The publishable key of the pair was not revoked and still works everywhere.
    for (const server of servers) expect((await client(server.url, fresh.publishableKey).post('/v2/tokens', tokenParams(TEST_PANS.visa))).status).toBe(200);
  });

  it('the test clock moved through one instance reads the same on every instance at once, and moves their charges within a second: expiry after 604800 s is seen on all', async () => {
    const clockKeys = await createKeys(servers[0]!.dataDir, 'multi-instance-clock');
    const clocks = servers.map((server) => client(server.url, clockKeys.secretKey));
    const [a, b, c] = clocks as [Client, Client, Client];

    const charge = await createCharge(a, TEST_PANS.visa, { amount: '700' });
    expect(charge.status).toBe('PENDING');

    // An hour short of seven days: still pending on every instance.
    const early = await b.post('/v2/test_helpers/clock', { advance_seconds: String(SEVEN_DAYS - 3600) });
    expect(early.status, JSON.stringify(early.body)).toBe(200);
    expect(early.body).toMatchObject({ type: 'test_clock', offset: SEVEN_DAYS - 3600 });
    for (const api of clocks) {
      expect((await api.get('/v2/test_helpers/clock')).body.offset).toBe(SEVEN_DAYS - 3600);
      expect((await api.get(`/v2/charges/${charge.id}`)).body).toMatchObject({ status: 'PENDING', reason: null });
    }

    // The last hour, moved through the third instance: expired on every one.
    const late = await c.post('/v2/test_helpers/clock', { advance_seconds: '3600' });
    expect(late.body).toMatchObject({ type: 'test_clock', offset: SEVEN_DAYS });
    // At once through the instance that moved it; within a second through the others (services/api-key-cache.ts).
    expect((await c.get(`/v2/charges/${charge.id}`)).body).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED' });
    const reads = record(
      await Promise.all(
        clocks.map((api) =>
          withinPropagation(
            () => api.get(`/v2/charges/${charge.id}`),
            (read) => read.body.status === 'REFUNDED',
          ),
        ),
      ),
    );
    for (const read of reads) {
      expect(read.body).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED', amount_refunded: 700, threedSecure: { status: 'NOT_AVAILABLE' } });
    }
    for (const api of clocks) {
      const clock = await api.get('/v2/test_helpers/clock');
      expect(clock.body.offset).toBe(SEVEN_DAYS);
      // All three read the same moved "now" (give or take the real seconds between the reads).
      expect(Math.abs(clock.body.now - late.body.now)).toBeLessThanOrEqual(5);
    }
    expectError(await a.post(`/v2/charges/capture/${charge.id}`), 402, 'CHARGE_EXPIRED');
    expectError(await b.post(`/v2/charges/refund/${charge.id}`), 402, 'CHARGE_EXPIRED');

    // Another account's clock did not move.
    expect((await on(0).get('/v2/test_helpers/clock')).body.offset).toBe(0);
  });

  it("token rate limits are shared: once one instance has used up a publishable key's minute, every other refuses it within a second", async () => {
    const limited = await createKeys(servers[0]!.dataDir, 'multi-instance-rate');
    const [first, ...others] = servers.map((server) => client(server.url, limited.publishableKey));
    // The harness's limit: 60 token creations a minute per address per publishable key.
    const allowed = record(await concurrently(60, () => first!.post('/v2/tokens', tokenParams(TEST_PANS.visa))));
    expect(
      allowed.map((response) => response.status),
      summary(allowed),
    ).toEqual(Array(60).fill(200));
    expectError(record([await first!.post('/v2/tokens', tokenParams(TEST_PANS.visa))])[0]!, 429, 'RATE_LIMITED');
    for (const api of others) {
      const refused = await withinPropagation(
        () => api.post('/v2/tokens', tokenParams(TEST_PANS.visa)),
        (response) => response.status === 429,
      );
      expectError(record([refused])[0]!, 429, 'RATE_LIMITED');
    }
  });

  it('never answered a server fault', () => {
    expect(seen.length).toBeGreaterThan(0);
    const faults = seen.filter((response) => response.status >= 500);
    expect(summary(faults)).toBe('[]');
    for (const server of servers) expect(server.output()).not.toMatch(/"level":(50|60)/);
  });
});
