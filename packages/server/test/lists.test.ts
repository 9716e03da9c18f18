import { expectError, expectOk } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, chargeParams, client, TEST_PANS, tokenParams } from './client.ts';
import { queryStore } from './database.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';

/**
 * GET /v2/charges and /v2/refunds: newest first, keyset pages in both directions, every filter
 * and every error. The sweeper runs rarely here, so that lists must apply expiry themselves.
 */

type Made = { id: string; status: string; email: string; last4: string; txn: string };

let server: TestServer;
let api: Client;
let other: Client;
let publishable: Client;
const made: Made[] = [];

async function charge(on: Client, number: string, email: string, txn: string, amount = '500'): Promise<string> {
  const token = await on.post('/v2/tokens', tokenParams(number, { shopper: { ip: '203.0.113.7', session_id: 's', email } }));
  expect(token.status, JSON.stringify(token.body)).toBe(200);
  const created = await on.post('/v2/charges', chargeParams(token.body.id, { txn_reference: txn, amount }));
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.id as string;
}

/** The ids the store holds for the account, newest first (created ms desc, id desc). */
async function newestFirst(where = '1 = 1', params: unknown[] = []): Promise<string[]> {
  const rows = await queryStore(
    server.dataDir,
    `select c.id, c.created_at from charges c join accounts a on a.id = c.account_id where a.name = 'lists' and ${where}`,
    params,
  );
  return rows
    .map((row) => ({ id: String(row.id), at: Number(row.created_at) }))
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
    .map((row) => row.id);
}

const ids = (list: any) => list.data.map((item: any) => item.id);

beforeAll(async () => {
  server = await startServer({ env: { PAYFRAME_SWEEP_INTERVAL_MS: '60000' } });
  const keys = await createKeys(server.dataDir, 'lists');
  api = client(server.url, keys.secretKey);
  publishable = client(server.url, keys.publishableKey);
  other = client(server.url, (await createKeys(server.dataDir, 'lists-other')).secretKey);
  const plan: Array<[string, string, string, string]> = [
    [TEST_PANS.visa, 'Ada@Example.com', 'order-1', 'PENDING'],
    [TEST_PANS.mastercardDebit, 'bob@example.com', 'order-2', 'CHARGE_SUCCESS'],
    [TEST_PANS.visa, 'ada@example.COM', 'order-3', 'PARTIALLY_REFUNDED'],
    [TEST_PANS.visa, 'carol@example.com', 'order-4', 'REFUNDED'],
    [TEST_PANS.mastercardDebit, 'bob@example.com', 'order-5', 'CHARGE_FAILED'],
    [TEST_PANS.visa, 'dan@example.com', 'order-6', 'CHARGE_SUCCESS'],
    [TEST_PANS.visa, 'ada@example.com', 'order-7', 'PENDING'],
    [TEST_PANS.mastercardDebit, 'erin@example.com', 'shared', 'PENDING'],
    [TEST_PANS.visa, 'erin@example.com', 'shared', 'REFUNDED'],
    [TEST_PANS.visa, 'frank@example.com', 'order-10', 'PENDING'],
    [TEST_PANS.visa, 'gina@example.com', 'order-11', 'CHARGE_SUCCESS'],
    [TEST_PANS.visa, 'hal@example.com', 'order-12', 'PENDING'],
  ];
  for (const [number, email, txn, status] of plan) {
    const id = await charge(api, number, email, txn);
    if (status === 'CHARGE_SUCCESS' || status === 'PARTIALLY_REFUNDED') expect((await api.post(`/v2/charges/capture/${id}`)).status).toBe(200);
    if (status === 'PARTIALLY_REFUNDED') expect((await api.post(`/v2/charges/refund/${id}`, { amount: '100' })).status).toBe(200);
    if (status === 'REFUNDED') expect((await api.post(`/v2/charges/refund/${id}`)).status).toBe(200);
    if (status === 'CHARGE_FAILED') expect((await api.post(`/v2/charges/cancel/${id}`)).status).toBe(200);
    made.push({ id, status, email: email.toLowerCase(), last4: number.slice(-4), txn });
  }
  await charge(other, TEST_PANS.visa, 'ada@example.com', 'order-1');
});
afterAll(() => server?.stop());

describe('GET /v2/charges', () => {
  it('lists newest first, 10 by default, as a retrieve shows each charge', async () => {
    const list = expectOk(await api.get('/v2/charges'));
    expect(Object.keys(list).sort()).toEqual(['data', 'has_more', 'type', 'url']);
    expect(list).toMatchObject({ type: 'list', url: '/v2/charges', has_more: true });
    expect(ids(list)).toEqual((await newestFirst()).slice(0, 10));
    const first = list.data[0];
    expect(first).toEqual((await api.get(`/v2/charges/${first.id}`)).body);
  });

  it('pages forward with starting_after and back with ending_before, has_more in the direction of travel', async () => {
    const all = await newestFirst();
    expect(all).toHaveLength(12);
    const first = expectOk(await api.get('/v2/charges?limit=5'));
    const second = expectOk(await api.get(`/v2/charges?limit=5&starting_after=${first.data[4].id}`));
    const third = expectOk(await api.get(`/v2/charges?limit=5&starting_after=${second.data[4].id}`));
    expect([first.has_more, second.has_more, third.has_more]).toEqual([true, true, false]);
    expect([...ids(first), ...ids(second), ...ids(third)]).toEqual(all);

    const back = expectOk(await api.get(`/v2/charges?limit=5&ending_before=${all[11]}`));
    expect(ids(back)).toEqual(all.slice(6, 11));
    expect(back.has_more).toBe(true);
    const front = expectOk(await api.get(`/v2/charges?limit=5&ending_before=${all[6]}`));
    expect(ids(front)).toEqual(all.slice(1, 6));
    expect(front.has_more).toBe(true);
    const top = expectOk(await api.get(`/v2/charges?limit=5&ending_before=${all[1]}`));
    expect(ids(top)).toEqual(all.slice(0, 1));
    expect(top.has_more).toBe(false);
    const none = expectOk(await api.get(`/v2/charges?ending_before=${all[0]}`));
    expect(none).toMatchObject({ data: [], has_more: false });
    const last = expectOk(await api.get(`/v2/charges?limit=100&starting_after=${all[11]}`));
    expect(last).toMatchObject({ data: [], has_more: false });
  });

  it('filters by status, e-mail (any case), last 4, txn_reference and creation time', async () => {
    for (const status of ['PENDING', 'CHARGE_SUCCESS', 'PARTIALLY_REFUNDED', 'REFUNDED', 'CHARGE_FAILED']) {
      const list = expectOk(await api.get(`/v2/charges?limit=100&status=${status}`));
      const expected = made.filter((item) => item.status === status).map((item) => item.id);
      expect(ids(list).sort(), status).toEqual(expected.sort());
      for (const item of list.data) expect(item.status).toBe(status);
    }
    const ada = expectOk(await api.get('/v2/charges?limit=100&email=ADA%40example.com'));
    expect(ids(ada)).toEqual(await newestFirst('c.email = ?', ['ada@example.com']));
    expect(ids(ada)).toHaveLength(3);
    const mastercard = expectOk(await api.get('/v2/charges?limit=100&last4=5454'));
    expect(ids(mastercard).sort()).toEqual(
      made
        .filter((item) => item.last4 === '5454')
        .map((item) => item.id)
        .sort(),
    );
    const shared = expectOk(await api.get('/v2/charges?txn_reference=shared'));
    expect(ids(shared)).toEqual(await newestFirst("c.txn_reference = 'shared'"));
    expect(ids(shared)).toHaveLength(2);
    const combined = expectOk(await api.get('/v2/charges?txn_reference=shared&status=REFUNDED'));
    expect(ids(combined)).toEqual(made.filter((item) => item.txn === 'shared' && item.status === 'REFUNDED').map((item) => item.id));
    expect(expectOk(await api.get('/v2/charges?email=nobody%40example.com')).data).toEqual([]);

    const rows = await queryStore(server.dataDir, 'select id, created_at from charges');
    const times = rows.map((row) => Number(row.created_at)).sort((a, b) => a - b);
    const middle = Math.floor(times[6]! / 1000);
    const from = expectOk(await api.get(`/v2/charges?limit=100&created%5Bgte%5D=${middle}`));
    expect(ids(from)).toEqual(await newestFirst('c.created_at >= ?', [middle * 1000]));
    const before = expectOk(await api.get(`/v2/charges?limit=100&created[lt]=${middle}`));
    expect(ids(before)).toEqual(await newestFirst('c.created_at < ?', [middle * 1000]));
    expect(ids(from).length + ids(before).length).toBe(12);
    const window = expectOk(await api.get(`/v2/charges?created[gte]=${middle}&created[lt]=${middle}`));
    expect(window.data).toEqual([]);
  });

  it('refuses bad parameters with the parameter named, and unknown ones (PARAMETER_UNKNOWN)', async () => {
    const [first] = await newestFirst();
    expectError(await api.get(`/v2/charges?starting_after=${first}&ending_before=${first}`), 400, 'PARAMETER_INVALID', { parameter: 'ending_before' });
    expectError(await api.get('/v2/charges?starting_after=C00000000000000000000'), 400, 'RESOURCE_MISSING', { parameter: 'starting_after' });
    const foreign = expectOk(await other.get('/v2/charges'));
    expectError(await api.get(`/v2/charges?ending_before=${foreign.data[0].id}`), 400, 'RESOURCE_MISSING', { parameter: 'ending_before' });
    for (const limit of ['0', '101', 'ten', '1.5', '-1', '', '99999999999999999999999']) {
      const refused = await api.get(`/v2/charges?limit=${limit}`);
      expectError(refused, 400, 'PARAMETER_INVALID', { parameter: 'limit' });
      expect(refused.body.error.message, limit).toContain('must be an integer from 1 to 100');
    }
    // More digits than a database integer holds, or a time past the year 9999: refused before the store sees them.
    for (const path of ['/v2/charges', '/v2/events']) {
      expectError(await api.get(`${path}?created[gte]=99999999999999999999999`), 400, 'PARAMETER_INVALID', { parameter: 'created.gte' });
      expectError(await api.get(`${path}?created[lt]=253402300800`), 400, 'PARAMETER_INVALID', { parameter: 'created.lt' });
    }
    expect((await api.get('/v2/charges?created[lt]=253402300799')).status).toBe(200);
    expectError(await api.get('/v2/charges?status=LOST'), 400, 'PARAMETER_INVALID', { parameter: 'status' });
    expectError(await api.get('/v2/charges?status=PENDING&status=REFUNDED'), 400, 'PARAMETER_INVALID', { parameter: 'status' });
    expectError(await api.get('/v2/charges?email=not-an-email'), 400, 'PARAMETER_INVALID', { parameter: 'email' });
    expectError(await api.get('/v2/charges?last4=42'), 400, 'PARAMETER_INVALID', { parameter: 'last4' });
    expectError(await api.get('/v2/charges?created[gte]=yesterday'), 400, 'PARAMETER_INVALID', { parameter: 'created.gte' });
    expectError(await api.get('/v2/charges?created=5'), 400, 'PARAMETER_INVALID', { parameter: 'created' });
    expectError(await api.get('/v2/charges?limit=3&colour=blue'), 400, 'PARAMETER_UNKNOWN', { parameter: 'colour' });
    expectError(await api.get('/v2/charges?limit=3&expand[]=token'), 400, 'PARAMETER_UNKNOWN', { parameter: 'expand' });
    expectError(await api.get('/v2/refunds?created[gte]=5'), 400, 'PARAMETER_UNKNOWN', { parameter: 'created' });
    expectError(await publishable.get('/v2/charges'), 403, 'PUBLISHABLE_KEY_NOT_ALLOWED');
    expectError(await api.request('PUT', '/v2/charges'), 405, 'METHOD_NOT_ALLOWED');
  });

  it('sees each account and mode only', async () => {
    const list = expectOk(await other.get('/v2/charges?limit=100'));
    expect(list.data).toHaveLength(1);
    expect(made.map((item) => item.id)).not.toContain(list.data[0].id);
  });
});

describe('GET /v2/refunds', () => {
  it('lists refunds newest first, by charge, in pages both ways', async () => {
    const refunded = made.filter((item) => ['PARTIALLY_REFUNDED', 'REFUNDED'].includes(item.status));
    const rows = await queryStore(
      server.dataDir,
      'select id, created_at from refunds where charge_id in (?, ?, ?)',
      refunded.map((item) => item.id),
    );
    const expected = rows.sort((a, b) => Number(b.created_at) - Number(a.created_at) || (String(a.id) < String(b.id) ? 1 : -1)).map((row) => row.id);
    const all = expectOk(await api.get('/v2/refunds'));
    expect(all).toMatchObject({ type: 'list', url: '/v2/refunds', has_more: false });
    expect(ids(all)).toEqual(expected);
    expect(all.data[0]).toEqual((await api.get(`/v2/charges/refund/${all.data[0].id}`)).body);

    const page = expectOk(await api.get('/v2/refunds?limit=2'));
    expect(page.has_more).toBe(true);
    const rest = expectOk(await api.get(`/v2/refunds?limit=2&starting_after=${page.data[1].id}`));
    expect([...ids(page), ...ids(rest)]).toEqual(expected);
    expect(rest.has_more).toBe(false);
    const back = expectOk(await api.get(`/v2/refunds?limit=1&ending_before=${expected[2]}`));
    expect(ids(back)).toEqual([expected[1]]);
    expect(back.has_more).toBe(true);

    const one = expectOk(await api.get(`/v2/refunds?charge=${refunded[0]!.id}`));
    expect(one.data.map((refund: any) => refund.charge)).toEqual([refunded[0]!.id]);
    // An unknown filter value: a charge that does not exist, or is another account's, is a 400 on `charge`.
    expectError(await api.get('/v2/refunds?charge=C00000000000000000000'), 400, 'PARAMETER_INVALID', { parameter: 'charge' });
    expectError(await other.get(`/v2/refunds?charge=${refunded[0]!.id}`), 400, 'PARAMETER_INVALID', { parameter: 'charge' });
    expectError(await api.get('/v2/refunds?starting_after=nope'), 400, 'RESOURCE_MISSING', { parameter: 'starting_after' });
    expectError(await api.get('/v2/refunds?limit=500'), 400, 'PARAMETER_INVALID', { parameter: 'limit' });
    expect(expectOk(await other.get('/v2/refunds')).data).toEqual([]);
  });
});

describe('expiry in lists', () => {
  it('counts a pending charge past its deadline as REFUNDED before the sweeper records it', async () => {
    const keys = await createKeys(server.dataDir, 'lists-expiry');
    const clockApi = client(server.url, keys.secretKey);
    const old = await charge(clockApi, TEST_PANS.visa, 'old@example.com', 'old');
    expect((await clockApi.post('/v2/test_helpers/clock', { advance_seconds: String(7 * 24 * 3600) })).status).toBe(200);
    const fresh = await charge(clockApi, TEST_PANS.visa, 'new@example.com', 'new');

    const pending = expectOk(await clockApi.get('/v2/charges?status=PENDING'));
    expect(ids(pending)).toEqual([fresh]);
    const refunded = expectOk(await clockApi.get('/v2/charges?status=REFUNDED'));
    expect(ids(refunded)).toEqual([old]);
    expect(refunded.data[0]).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED', amount_refunded: 500 });
    const all = expectOk(await clockApi.get('/v2/charges'));
    expect(all.data.map((item: any) => item.status)).toEqual(['PENDING', 'REFUNDED']);
    // The store still says PENDING: the list applied the deadline itself.
    expect(await queryStore(server.dataDir, 'select status from charges where id = ?', [old])).toEqual([{ status: 'PENDING' }]);
  });
});

describe('errors name the parameter but never repeat its value', () => {
  it.each([
    ['/v2/charges', 'No such charge.'],
    ['/v2/refunds', 'No such refund.'],
    ['/v2/events', 'No such event.'],
  ])('an unknown cursor of %s', async (path, message) => {
    for (const parameter of ['starting_after', 'ending_before']) {
      const response = await api.get(`${path}?${parameter}=nope-cursor-42`);
      expectError(response, 400, 'RESOURCE_MISSING', { parameter: parameter });
      expect(response.body.error.message).toBe(message);
    }
  });

  it.each([
    ['limit', '1.5e1'],
    ['created[gte]', '1.7e9'],
    ['status', 'NOPE_STATUS'],
    ['last4', '42x'],
  ])('%s=%s', async (name, value) => {
    const response = await api.get(`/v2/charges?${name}=${value}`);
    expectError(response, 400, 'PARAMETER_INVALID', { parameter: name.replace('[', '.').replace(']', '') });
    expect(response.body.error.message).toMatch(/^Invalid parameter [a-z_.0-9]+: must /);
    expect(response.body.error.message).not.toContain(value);
  });
});
