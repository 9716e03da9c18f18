import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, chargeParams, client, createCharge, TEST_PANS, tokenParams } from './client.ts';
import { queryStore } from './database.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

/** Every change of a charge writes its event in the change's transaction; a refused change writes none. */

let server: InProcessTestServer;
let api: Client;

beforeAll(async () => {
  server = await startInProcess();
  api = client(server, (await createKeys(server.dataDir, 'events-recorded')).secretKey);
});
afterAll(() => server?.stop());

async function eventsOf(chargeId: string): Promise<Array<{ name: string; body: any }>> {
  const rows = await queryStore(server.dataDir, 'select name, body from events where charge_id = ? order by seq', [chargeId]);
  return rows.map((row) => ({ name: String(row.name), body: JSON.parse(String(row.body)) }));
}

async function postPage(redirect: string, result: 'success' | 'failure'): Promise<number> {
  const url = new URL(redirect);
  const response = await server.fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ paRes: url.searchParams.get('paRes') ?? '', result }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('events written with each change', () => {
  it('create, capture and two refunds: one event each, with the charge after the change', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
    const partial = await api.post(`/v2/charges/refund/${charge.id}`, { amount: '100' });
    expect(partial.status).toBe(200);
    const rest = await api.post(`/v2/charges/refund/${charge.id}`);
    expect(rest.status).toBe(200);

    const events = await eventsOf(charge.id);
    expect(events.map((event) => event.name)).toEqual(['charge.created', 'charge.captured', 'charge.refunded', 'charge.refunded']);
    const [created, captured, firstRefund, secondRefund] = events.map((event) => event.body);
    expect(created).toMatchObject({ type: 'event', name: 'charge.created', mode: 'test', data: { object: { id: charge.id, status: 'PENDING' } } });
    expect(created.id).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(created.data.refund).toBeUndefined();
    expect(captured.data.object).toMatchObject({ status: 'CHARGE_SUCCESS', fees: 33 });
    expect(firstRefund.data).toMatchObject({ object: { status: 'PARTIALLY_REFUNDED', amount_refunded: 100 }, refund: { id: partial.body.id, amount: 100 } });
    expect(secondRefund.data).toMatchObject({ object: { status: 'REFUNDED', amount_refunded: 500 }, refund: { id: rest.body.id, amount: 400 } });
    expect(Math.abs(created.created - Date.now() / 1000)).toBeLessThan(60);
  });

  it('3-D Secure outcomes from the hosted page and from the test helper, cancel and release', async () => {
    const byPage = await createCharge(api, TEST_PANS.visa3ds);
    expect(await postPage(byPage.threedSecure.redirect, 'success')).toBe(303);
    const failedByPage = await createCharge(api, TEST_PANS.visa3ds);
    expect(await postPage(failedByPage.threedSecure.redirect, 'failure')).toBe(303);
    const byHelper = await createCharge(api, TEST_PANS.visa3ds);
    expect((await api.post(`/v2/test_helpers/charges/${byHelper.id}/authenticate`, { result: 'failure' })).status).toBe(200);
    expect((await api.post(`/v2/charges/cancel/${byHelper.id}`)).status).toBe(200);
    const released = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/refund/${released.id}`)).status).toBe(200);

    expect((await eventsOf(byPage.id)).map((event) => event.name)).toEqual(['charge.created', 'charge.authentication_succeeded']);
    expect((await eventsOf(failedByPage.id)).map((event) => event.name)).toEqual(['charge.created', 'charge.authentication_failed']);
    const helperEvents = await eventsOf(byHelper.id);
    expect(helperEvents.map((event) => event.name)).toEqual(['charge.created', 'charge.authentication_failed', 'charge.canceled']);
    expect(helperEvents[2]!.body.data.object).toMatchObject({ status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API' });
    const releaseEvents = await eventsOf(released.id);
    expect(releaseEvents.map((event) => event.name)).toEqual(['charge.created', 'charge.refunded']);
    expect(releaseEvents[1]!.body.data).toMatchObject({ object: { status: 'REFUNDED', amount_refunded: 500 }, refund: { amount: 500 } });
  });

  it('a declined create, a refused move and a replayed request write no event', async () => {
    const before = await queryStore(server.dataDir, 'select count(*) as n from events');
    const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.declined));
    const declined = await api.post('/v2/charges', chargeParams(token.body.id));
    expect(declined.status).toBe(402);
    const pending3ds = await createCharge(api, TEST_PANS.visa3ds);
    expect((await api.post(`/v2/charges/capture/${pending3ds.id}`)).status).toBe(402);
    const headers = { 'idempotency-key': `cancel-${pending3ds.id}` };
    expect((await api.post(`/v2/charges/cancel/${pending3ds.id}`, undefined, { headers })).status).toBe(200);
    const replay = await api.post(`/v2/charges/cancel/${pending3ds.id}`, undefined, { headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const after = await queryStore(server.dataDir, 'select count(*) as n from events');
    expect(Number(after[0]!.n) - Number(before[0]!.n)).toBe(2);
    expect((await eventsOf(pending3ds.id)).map((event) => event.name)).toEqual(['charge.created', 'charge.canceled']);
  });

  it('queues one pending delivery per endpoint of the account and mode that takes the event', async () => {
    const [{ account_id: accountId }] = (await queryStore(server.dataDir, 'select account_id from events limit 1')) as [{ account_id: string }];
    const endpoint = (id: string, mode: string, events: string[], deletedAt: number | null) =>
      queryStore(
        server.dataDir,
        'insert into webhook_endpoints (id, account_id, mode, url, events, description, secret_sealed, created_at, deleted_at) values (?, ?, ?, ?, ?, null, ?, ?, ?)',
        [id, accountId, mode, 'http://127.0.0.1:9/hook', JSON.stringify(events), 'sealed', Date.now(), deletedAt],
      );
    await endpoint('we_captures', 'test', ['charge.captured'], null);
    await endpoint('we_everything', 'test', ['charge.created', 'charge.captured'], null);
    await endpoint('we_deleted', 'test', ['charge.captured'], Date.now());
    await endpoint('we_live', 'live', ['charge.captured'], null);

    const before = Date.now();
    const charge = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
    const rows = await queryStore(
      server.dataDir,
      'select d.endpoint_id, d.status, d.attempts, d.next_attempt_at, e.name from webhook_deliveries d join events e on e.id = d.event_id where e.charge_id = ? order by e.seq, d.endpoint_id',
      [charge.id],
    );
    // The delivery worker may already have tried them (these endpoints cannot be signed for): still pending, retried later.
    expect(rows.map((row) => [row.name, row.endpoint_id, row.status])).toEqual([
      ['charge.created', 'we_everything', 'pending'],
      ['charge.captured', 'we_captures', 'pending'],
      ['charge.captured', 'we_everything', 'pending'],
    ]);
    for (const row of rows) expect(Number(row.next_attempt_at)).toBeGreaterThanOrEqual(before);
  });
});
