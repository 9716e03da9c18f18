import { expectError, expectOk } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, TEST_PANS } from './client.ts';
import { eventually, queryStore } from './database.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';

/** GET /v2/events and /v2/events/:id, and `charge.expired` from the sweeper (default period). */

let server: TestServer;
let api: Client;
let secretKey: string;
let other: Client;

beforeAll(async () => {
  server = await startServer();
  secretKey = (await createKeys(server.dataDir, 'events')).secretKey;
  api = client(server.url, secretKey);
  other = client(server.url, (await createKeys(server.dataDir, 'events-other')).secretKey);
});
afterAll(() => server?.stop());

const names = (list: any) => list.data.map((event: any) => event.name);

describe('events of a charge', () => {
  it('lists each change newest first, and retrieves each as the list shows it, byte for byte', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    expect((await api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'success' })).status).toBe(200);
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
    expect((await api.post(`/v2/charges/refund/${charge.id}`, { amount: '200' })).status).toBe(200);
    expect((await api.post(`/v2/charges/refund/${charge.id}`)).status).toBe(200);

    const list = expectOk(await api.get(`/v2/events?charge=${charge.id}`));
    expect(list).toMatchObject({ type: 'list', url: '/v2/events', has_more: false });
    expect(names(list)).toEqual(['charge.refunded', 'charge.refunded', 'charge.captured', 'charge.authentication_succeeded', 'charge.created']);
    expect(list.data.map((event: any) => event.data.object.status)).toEqual(['REFUNDED', 'PARTIALLY_REFUNDED', 'CHARGE_SUCCESS', 'PENDING', 'PENDING']);
    expect(list.data[0].data.refund).toMatchObject({ charge: charge.id, amount: 300 });
    expect(list.data[4].data.refund).toBeUndefined();
    const current = (await api.get(`/v2/charges/${charge.id}`)).body;
    expect(list.data[0].data.object).toEqual(current);

    const listText = await (await fetch(`${server.url}/v2/events?charge=${charge.id}`, { headers: { 'x-api-key': secretKey } })).text();
    for (const event of list.data) {
      const response = await fetch(`${server.url}/v2/events/${event.id}`, { headers: { 'x-api-key': secretKey } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const text = await response.text();
      expect(JSON.parse(text)).toEqual(event);
      expect(listText).toContain(text);
    }
  });

  it('filters by name, charge and creation time, and pages both ways', async () => {
    const charges = [];
    for (let index = 0; index < 3; index++) charges.push(await createCharge(api, TEST_PANS.visa));
    for (const charge of charges) expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);

    const captured = expectOk(await api.get('/v2/events?name=charge.captured&limit=3'));
    expect(captured.data.map((event: any) => event.data.object.id)).toEqual(charges.map((charge) => charge.id).reverse());
    expect(captured.has_more).toBe(true);
    const older = expectOk(await api.get(`/v2/events?name=charge.captured&limit=3&starting_after=${captured.data[2].id}`));
    expect(names(older)).toEqual(['charge.captured']);
    expect(older.has_more).toBe(false);
    const newer = expectOk(await api.get(`/v2/events?name=charge.captured&limit=2&ending_before=${captured.data[2].id}`));
    expect(newer.data.map((event: any) => event.id)).toEqual([captured.data[0].id, captured.data[1].id]);
    expect(newer.has_more).toBe(false);

    const all = expectOk(await api.get('/v2/events?limit=100'));
    const seconds = all.data.map((event: any) => event.created);
    expect([...seconds].sort((a: number, b: number) => b - a)).toEqual(seconds);
    const since = seconds[0];
    const recent = expectOk(await api.get(`/v2/events?limit=100&created[gte]=${since}`));
    expect(recent.data.every((event: any) => event.created >= since)).toBe(true);
    expect(recent.data.length).toBe(all.data.filter((event: any) => event.created >= since).length);
    const before = expectOk(await api.get(`/v2/events?limit=100&created[lt]=${since}`));
    expect(before.data.length + recent.data.length).toBe(all.data.length);
    expectError(await api.get('/v2/events?charge=C00000000000000000000'), 400, 'PARAMETER_INVALID', { parameter: 'charge' });
  });

  it('refuses bad parameters, and hides other accounts’ events', async () => {
    const charge = await createCharge(other, TEST_PANS.visa);
    const foreign = expectOk(await other.get(`/v2/events?charge=${charge.id}`)).data[0];
    expectError(await api.get(`/v2/events/${foreign.id}`), 404, 'RESOURCE_MISSING');
    expectError(await api.get('/v2/events/evt_000000000000000000000000'), 404, 'RESOURCE_MISSING');
    // Another account's charge is as unknown as one that does not exist: a 400 on `charge`, revealing nothing.
    expectError(await api.get(`/v2/events?charge=${charge.id}`), 400, 'PARAMETER_INVALID', { parameter: 'charge' });
    expectError(await api.get('/v2/events?charge=bogus'), 400, 'PARAMETER_INVALID', { parameter: 'charge' });
    expectError(await api.get(`/v2/events?starting_after=${foreign.id}`), 400, 'RESOURCE_MISSING', { parameter: 'starting_after' });
    expectError(await api.get(`/v2/events?starting_after=${foreign.id}&ending_before=${foreign.id}`), 400, 'PARAMETER_INVALID', { parameter: 'ending_before' });
    expectError(await api.get('/v2/events?name=charge.exploded'), 400, 'PARAMETER_INVALID', { parameter: 'name' });
    expectError(await api.get('/v2/events?limit=0'), 400, 'PARAMETER_INVALID', { parameter: 'limit' });
    expectError(await api.request('POST', '/v2/events'), 405, 'METHOD_NOT_ALLOWED');
  });
});

// Side by side: each waits for the sweeper's default period on its own account's clock.
describe.concurrent('charge.expired', () => {
  it('is recorded within 5 s of a test-clock advance past the deadline, once', async ({ expect }) => {
    const keys = await createKeys(server.dataDir, 'events-expiry');
    const clockApi = client(server.url, keys.secretKey);
    const pending = await createCharge(clockApi, TEST_PANS.visa3ds);
    const captured = await createCharge(clockApi, TEST_PANS.visa);
    expect((await clockApi.post(`/v2/charges/capture/${captured.id}`)).status).toBe(200);
    const advanced = await clockApi.post('/v2/test_helpers/clock', { advance_seconds: String(7 * 24 * 3600) });
    expect(advanced.status).toBe(200);
    const advancedAt = Date.now();

    const expired = await eventually(async () => expectOk(await clockApi.get(`/v2/events?name=charge.expired`)).data[0], 15_000, 'charge.expired recorded');
    expect(Date.now() - advancedAt).toBeLessThan(5_000);
    expect(expired.data.object).toMatchObject({ id: pending.id, status: 'REFUNDED', reason: 'EXPIRED', amount_refunded: 500 });
    expect(expired.data.object.threedSecure.status).toBe('NOT_AVAILABLE');
    expect(expired.created).toBeGreaterThanOrEqual(advanced.body.now);
    // Recorded in the store, not only applied on read (an embedded store's commit reaches other readers at its next group commit).
    const stored = async () => (await queryStore(server.dataDir, 'select status, reason from charges where id = ?', [pending.id]))[0];
    expect(await eventually(async () => ((await stored())?.status === 'REFUNDED' ? stored() : undefined), 5_000, 'expiry stored')).toEqual({
      status: 'REFUNDED',
      reason: 'EXPIRED',
    });

    // Two more runs of the job later, still one event, and none for the captured charge.
    const runAt = async () =>
      Number((await queryStore(server.dataDir, "select next_run_at from background_jobs where name = 'expire-charges'"))[0]?.next_run_at);
    const seen = await runAt();
    await eventually(async () => ((await runAt()) > seen ? true : undefined), 15_000, 'a later run');
    const later = await runAt();
    await eventually(async () => ((await runAt()) > later ? true : undefined), 15_000, 'another run');
    const list = expectOk(await clockApi.get('/v2/events?name=charge.expired'));
    expect(list.data.map((event: any) => event.data.object.id)).toEqual([pending.id]);
    expect(names(expectOk(await clockApi.get(`/v2/events?charge=${pending.id}`)))).toEqual(['charge.expired', 'charge.created']);
    expectError(await clockApi.post(`/v2/charges/capture/${pending.id}`), 402, 'CHARGE_EXPIRED');
  });

  it('several expiring at once list newest first by creation time, then by id', async ({ expect }) => {
    const keys = await createKeys(server.dataDir, 'events-ties');
    const clockApi = client(server.url, keys.secretKey);
    for (let i = 0; i < 6; i++) await createCharge(clockApi, TEST_PANS.visa3ds);
    expect((await clockApi.post('/v2/test_helpers/clock', { advance_seconds: String(7 * 24 * 3600) })).status).toBe(200);
    const listed = await eventually(
      async () => {
        const data = expectOk(await clockApi.get('/v2/events?name=charge.expired')).data;
        return data.length === 6 ? data.map((event: any) => event.id as string) : undefined;
      },
      15_000,
      'six charge.expired events',
    );
    // The list shows creation times in seconds: the order it keeps is read from the milliseconds stored.
    const stored = await queryStore(
      server.dataDir,
      `select id, created_at from events where name = 'charge.expired' and id in (${listed.map(() => '?').join(', ')})`,
      listed,
    );
    const createdAt = new Map(stored.map((row) => [String(row.id), Number(row.created_at)]));
    const newestFirst = [...listed].sort((a, b) => createdAt.get(b)! - createdAt.get(a)! || (a < b ? 1 : -1));
    expect(listed).toEqual(newestFirst);
    // One sweep expires them in one transaction: they share a millisecond, so the ids decide.
    expect(new Set(createdAt.values()).size).toBeLessThan(6);
  });
});
