import { EVENT_NAMES } from '@payframe/contract';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, TEST_PANS } from './client.ts';
import { eventually, everyRow, queryStore, untilRequestLogged } from './database.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

/** Luhn-valid, not a test card: live mode declines the test cards. */
const LIVE_PAN = '4111111111111111';
/** A public address: live endpoints may be created for it without DNS. */
const PUBLIC_URL = 'https://93.184.216.34/webhooks';

let server: TestServer;
let acme: Client;
let acmeKey: string;
let acmeLive: Client;
let globex: Client;
let receiver: Receiver;

/** Live keys over a trusted proxy that terminated TLS. */
function viaHttpsProxy(base: Client): Client {
  const https = { 'x-forwarded-proto': 'https' };
  return {
    get: (path, options) => base.get(path, { ...options, headers: { ...https, ...options?.headers } }),
    post: (path, params, options) => base.post(path, params, { ...options, headers: { ...https, ...options?.headers } }),
    request: (method, path, params, options = {}) => base.request(method, path, params, { ...options, headers: { ...https, ...options.headers } }),
  };
}

beforeAll(async () => {
  server = await startServer({ args: ['--trust-proxy', '127.0.0.1', '--live-acquirer', 'simulator'], env: { PAYFRAME_WEBHOOK_RETRY_SCHEDULE: '0.5,0.5' } });
  const [acmeTest, acmeLiveKeys, globexTest] = await Promise.all([
    createKeys(server.dataDir, 'acme', 'test'),
    createKeys(server.dataDir, 'acme', 'live'),
    createKeys(server.dataDir, 'globex', 'test'),
  ]);
  acmeKey = acmeTest.secretKey;
  acme = client(server.url, acmeTest.secretKey);
  acmeLive = viaHttpsProxy(client(server.url, acmeLiveKeys.secretKey));
  globex = client(server.url, globexTest.secretKey);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await server?.stop();
});

async function create(api: Client, params: Record<string, unknown>): Promise<any> {
  const created = await api.post('/v2/webhook_endpoints', params);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body;
}

async function createdEventOf(chargeId: string): Promise<string> {
  const rows = await queryStore(server.dataDir, "select id from events where charge_id = ? and name = 'charge.created'", [chargeId]);
  return String(rows[0]?.id);
}

describe('webhook endpoints', () => {
  it('create shows the secret once; retrieve and the database never show it', async () => {
    const endpoint = await create(acme, { url: receiver.url, description: 'orders', events: ['charge.captured', 'charge.captured', 'charge.expired'] });
    expect(endpoint).toMatchObject({
      type: 'webhook_endpoint',
      url: receiver.url,
      events: ['charge.captured', 'charge.expired'],
      description: 'orders',
      mode: 'test',
    });
    expect(endpoint.id).toMatch(/^we_[0-9a-f]{24}$/);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(32);
    const retrieved = await acme.get(`/v2/webhook_endpoints/${endpoint.id}`);
    expect(retrieved.status).toBe(200);
    const { secret, ...shown } = endpoint;
    expect(retrieved.body).toEqual(shown);
    const key = secret.slice(6);
    await untilRequestLogged(server.dataDir, retrieved);
    expect((await everyRow(server.dataDir)).filter(({ row }) => row.includes(key))).toEqual([]);
  });

  it('takes every event when none are named; lists newest first with keyset pages', async () => {
    const api = client(server.url, (await createKeys(server.dataDir, 'lister')).secretKey);
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) ids.push((await create(api, { url: receiver.url })).id);
    const all = await api.get('/v2/webhook_endpoints');
    expect(all.body).toMatchObject({ type: 'list', url: '/v2/webhook_endpoints', has_more: false });
    expect(all.body.data.map((endpoint: any) => endpoint.id)).toEqual([...ids].reverse());
    expect(all.body.data[0].events).toEqual([...EVENT_NAMES]);
    expect(all.body.data[0]).not.toHaveProperty('secret');

    const first = await api.get('/v2/webhook_endpoints?limit=2');
    expect(first.body.has_more).toBe(true);
    expect(first.body.data.map((endpoint: any) => endpoint.id)).toEqual([ids[2], ids[1]]);
    const older = await api.get(`/v2/webhook_endpoints?limit=2&starting_after=${ids[1]}`);
    expect(older.body).toMatchObject({ has_more: false, data: [{ id: ids[0] }] });
    const newer = await api.get(`/v2/webhook_endpoints?limit=1&ending_before=${ids[0]}`);
    expect(newer.body).toMatchObject({ has_more: true, data: [{ id: ids[1] }] });

    expectError(await api.get('/v2/webhook_endpoints?limit=0'), 400, 'PARAMETER_INVALID', { parameter: 'limit' });
    expectError(await api.get(`/v2/webhook_endpoints?starting_after=${ids[0]}&ending_before=${ids[1]}`), 400, 'PARAMETER_INVALID', {
      parameter: 'ending_before',
    });
    expectError(await api.get('/v2/webhook_endpoints?starting_after=we_000000000000000000000000'), 400, 'RESOURCE_MISSING', { parameter: 'starting_after' });
  });

  it('delete answers once, then the endpoint is gone everywhere', async () => {
    const endpoint = await create(acme, { url: receiver.url });
    // A parameter the delete does not take is refused before anything is done, not ignored.
    expectError(await acme.request('DELETE', `/v2/webhook_endpoints/${endpoint.id}`, { disabled: 'true' }), 400, 'PARAMETER_UNKNOWN', {
      parameter: 'disabled',
    });
    expect((await acme.get(`/v2/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
    const deleted = await acme.request('DELETE', `/v2/webhook_endpoints/${endpoint.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ type: 'webhook_endpoint', id: endpoint.id, deleted: true });
    expectError(await acme.request('DELETE', `/v2/webhook_endpoints/${endpoint.id}`), 404, 'RESOURCE_MISSING', { parameter: 'id' });
    expectError(await acme.get(`/v2/webhook_endpoints/${endpoint.id}`), 404, 'RESOURCE_MISSING', { parameter: 'id' });
    expect((await acme.get('/v2/webhook_endpoints?limit=100')).body.data.map((row: any) => row.id)).not.toContain(endpoint.id);
    expectError(await acme.request('PUT', `/v2/webhook_endpoints/${endpoint.id}`), 405, 'METHOD_NOT_ALLOWED');
  });

  it('another account, or the other mode, sees neither the endpoint nor the event', async () => {
    const endpoint = await create(acme, { url: receiver.url, events: ['charge.created'] });
    const eventId = await createdEventOf((await createCharge(acme, TEST_PANS.visa)).id);
    for (const other of [globex, acmeLive]) {
      expectError(await other.get(`/v2/webhook_endpoints/${endpoint.id}`), 404, 'RESOURCE_MISSING', { parameter: 'id' });
      expectError(await other.request('DELETE', `/v2/webhook_endpoints/${endpoint.id}`), 404, 'RESOURCE_MISSING', { parameter: 'id' });
      expect((await other.get('/v2/webhook_endpoints')).body.data).toEqual([]);
      expectError(await other.get(`/v2/events/${eventId}/deliveries`), 404, 'RESOURCE_MISSING', { parameter: 'id' });
      expectError(await other.post(`/v2/events/resend/${eventId}`), 404, 'RESOURCE_MISSING', { parameter: 'id' });
    }
    const globexEndpoint = await create(globex, { url: receiver.url, events: ['charge.expired'] });
    expectError(await acme.post(`/v2/events/resend/${eventId}`, { endpoint: globexEndpoint.id }), 400, 'RESOURCE_MISSING', { parameter: 'endpoint' });
    expect((await acme.request('DELETE', `/v2/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
  });
});

describe('updating an endpoint', () => {
  it('changes what is sent and keeps the rest, with the create’s validation and strict parameters', async () => {
    const endpoint = await create(acme, { url: receiver.url, description: 'orders', events: ['charge.created'] });
    const moved = `${receiver.url}?v=2`;
    const updated = await acme.post(`/v2/webhook_endpoints/${endpoint.id}`, { url: moved, events: ['charge.captured', 'charge.refunded'] });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const { secret: _secret, ...before } = endpoint;
    expect(updated.body).toEqual({ ...before, url: moved, events: ['charge.captured', 'charge.refunded'], disabled: false });
    expect((await acme.get(`/v2/webhook_endpoints/${endpoint.id}`)).body).toEqual(updated.body);

    const described = await acme.post(`/v2/webhook_endpoints/${endpoint.id}`, { description: 'refunds desk', disabled: 'true' });
    expect(described.body).toMatchObject({ description: 'refunds desk', disabled: true, url: moved });
    const json = await acme.post(`/v2/webhook_endpoints/${endpoint.id}`, { disabled: false, description: null }, { encoding: 'json' });
    expect(json.body).toMatchObject({ description: null, disabled: false });

    const id = endpoint.id;
    expectError(await acme.post(`/v2/webhook_endpoints/${id}`, { enabled: 'true' }), 400, 'PARAMETER_UNKNOWN', { parameter: 'enabled' });
    expectError(await acme.post(`/v2/webhook_endpoints/${id}`, { url: 'ftp://example.com/hooks' }), 400, 'PARAMETER_INVALID', { parameter: 'url' });
    expectError(await acme.post(`/v2/webhook_endpoints/${id}`, { events: ['charge.exploded'] }), 400, 'PARAMETER_INVALID');
    expectError(await acme.post(`/v2/webhook_endpoints/${id}`, { disabled: 'maybe' }), 400, 'PARAMETER_INVALID', { parameter: 'disabled' });
    expectError(await acme.post(`/v2/webhook_endpoints/${id}`, { description: 'x'.repeat(1001) }), 400, 'PARAMETER_INVALID', { parameter: 'description' });
    expectError(await acmeLive.post(`/v2/webhook_endpoints/${id}`, { disabled: 'true' }), 404, 'RESOURCE_MISSING', { parameter: 'id' });
    expectError(await globex.post(`/v2/webhook_endpoints/${id}`, { disabled: 'true' }), 404, 'RESOURCE_MISSING', { parameter: 'id' });
    expectError(await acme.post('/v2/webhook_endpoints/we_000000000000000000000000', { disabled: 'true' }), 404, 'RESOURCE_MISSING', { parameter: 'id' });
    expect((await acme.get(`/v2/webhook_endpoints/${id}`)).body).toEqual(json.body);

    const live = await create(acmeLive, { url: PUBLIC_URL });
    expectError(await acmeLive.post(`/v2/webhook_endpoints/${live.id}`, { url: 'https://127.0.0.1/hooks' }), 400, 'PARAMETER_INVALID', { parameter: 'url' });
    expect((await acmeLive.request('DELETE', `/v2/webhook_endpoints/${live.id}`)).status).toBe(200);
    expect((await acme.request('DELETE', `/v2/webhook_endpoints/${id}`)).status).toBe(200);
    expectError(await acme.post(`/v2/webhook_endpoints/${id}`, { disabled: 'false' }), 404, 'RESOURCE_MISSING', { parameter: 'id' });
  });

  it('a form names a list by repeating it, so one name alone is a list of one; JSON sends an array', async () => {
    // What the document's `form` style with `explode` says a client sends for a list of one.
    const single = await create(acme, { url: receiver.url, events: 'charge.created' });
    expect(single.events).toEqual(['charge.created']);
    const multipart = await acme.post('/v2/webhook_endpoints', { url: receiver.url, events: 'charge.refunded' }, { encoding: 'multipart' });
    expect(multipart.status, JSON.stringify(multipart.body)).toBe(200);
    expect(multipart.body.events).toEqual(['charge.refunded']);
    const repeated = new URLSearchParams([
      ['events', 'charge.captured'],
      ['events', 'charge.expired'],
    ]);
    const updated = await acme.post(`/v2/webhook_endpoints/${single.id}`, { events: 'charge.expired' });
    expect(updated.body.events).toEqual(['charge.expired']);
    const both = await fetch(`${server.url}/v2/webhook_endpoints/${single.id}`, { method: 'POST', headers: { 'x-api-key': acmeKey }, body: repeated });
    expect(((await both.json()) as { events: string[] }).events).toEqual(['charge.captured', 'charge.expired']);

    expectError(await acme.post('/v2/webhook_endpoints', { url: receiver.url, events: 'charge.created' }, { encoding: 'json' }), 400, 'PARAMETER_INVALID', {
      parameter: 'events',
    });
    expectError(await acme.post('/v2/webhook_endpoints', { url: receiver.url, events: 'charge.exploded' }), 400, 'PARAMETER_INVALID');
    expectError(await acme.post('/v2/webhook_endpoints', { url: receiver.url, events: '' }), 400, 'PARAMETER_INVALID');
    for (const endpoint of [single, multipart.body]) expect((await acme.request('DELETE', `/v2/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
  });

  it('a disabled endpoint gets no new deliveries, a resend included; enabled again, it does', async () => {
    const api = client(server.url, (await createKeys(server.dataDir, 'disabler')).secretKey);
    const own = await startReceiver();
    try {
      const endpoint = await create(api, { url: own.url, events: ['charge.created'] });
      expect((await api.post(`/v2/webhook_endpoints/${endpoint.id}`, { disabled: 'true' })).body.disabled).toBe(true);
      const quiet = await createdEventOf((await createCharge(api, TEST_PANS.visa)).id);
      expect((await api.get(`/v2/events/${quiet}/deliveries`)).body.data).toEqual([]);
      expect((await api.post(`/v2/events/resend/${quiet}`)).body.data).toEqual([]);
      expectError(await api.post(`/v2/events/resend/${quiet}`, { endpoint: endpoint.id }), 400, 'PARAMETER_INVALID', { parameter: 'endpoint' });

      expect((await api.post(`/v2/webhook_endpoints/${endpoint.id}`, { disabled: 'false' })).body.disabled).toBe(false);
      const heard = await createdEventOf((await createCharge(api, TEST_PANS.visa)).id);
      await eventually(async () => (own.received.some((request) => request.id === heard) ? true : undefined), 10_000, 'the delivery once enabled');
      expect(own.received.map((request) => request.id)).toEqual([heard]);
    } finally {
      await own.close();
    }
  });
});

describe('endpoint URL rules', () => {
  it('test endpoints may be http and loopback', async () => {
    expect((await acme.post('/v2/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', events: ['charge.expired'] })).status).toBe(200);
    expect((await acme.post('/v2/webhook_endpoints', { url: 'http://localhost:9/hook', events: ['charge.expired'] })).status).toBe(200);
  });

  it.each([
    'http://93.184.216.34/webhooks',
    'https://127.0.0.1/webhooks',
    'https://localhost/webhooks',
    'https://10.1.2.3/webhooks',
    'https://192.168.0.10/webhooks',
    'https://172.16.5.4/webhooks',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/webhooks',
    'https://0.0.0.0/webhooks',
    'https://224.0.0.1/webhooks',
    'https://[::1]/webhooks',
    'https://[fe80::1]/webhooks',
    'https://[fd00::1]/webhooks',
    'https://[::ffff:127.0.0.1]/webhooks',
    'https://[::ffff:10.0.0.1]/webhooks',
    'https://[::127.0.0.1]/webhooks',
    'https://[::a00:1]/webhooks',
    'https://does-not-exist.invalid/webhooks',
  ])('live refuses %s, naming neither the host nor its address', async (url) => {
    const response = await acmeLive.post('/v2/webhook_endpoints', { url });
    expectError(response, 400, 'PARAMETER_INVALID', { parameter: 'url' });
    const { hostname } = new URL(url);
    for (const shown of [hostname, hostname.replace(/^\[(.*)\]$/, '$1'), '127.0.0.1', '::1']) expect(response.body.error.message).not.toContain(shown);
  });

  it.each([
    [
      'https://does-not-exist.invalid/webhooks',
      /^The webhook endpoint URL must have a hostname that resolves \((ENOTFOUND|EAI_AGAIN|no answer within 5 s)\)\.$/,
    ],
    ['https://localhost/webhooks', 'The webhook endpoint URL must reach a public address in live mode: its hostname resolves to a loopback address.'],
    ['https://127.0.0.1/webhooks', 'The webhook endpoint URL must reach a public address in live mode: its host is a loopback address.'],
    ['https://[fd00::1]/webhooks', 'The webhook endpoint URL must reach a public address in live mode: its host is a unique local address.'],
  ])('live refuses %s in these words', async (url, message) => {
    const response = await acmeLive.post('/v2/webhook_endpoints', { url });
    expectError(response, 400, 'PARAMETER_INVALID', { parameter: 'url' });
    expect(response.body.error.message).toMatch(message);
  });

  it('live takes an https URL of a public address', async () => {
    const endpoint = await create(acmeLive, { url: PUBLIC_URL, events: ['charge.expired'] });
    expect(endpoint.mode).toBe('live');
  });

  it('a live hostname that resolves to loopback by delivery time is refused on the connection: a failed attempt, nothing sent', async () => {
    const endpoint = await create(acmeLive, { url: PUBLIC_URL, events: ['charge.created'] });
    // What DNS rebinding does to a hostname: it resolved publicly at creation and to 127.0.0.1 now.
    await queryStore(server.dataDir, 'update webhook_endpoints set url = ? where id = ?', [`https://localhost:${receiver.port}/webhooks`, endpoint.id]);
    const before = receiver.received.length;
    const charge = await createCharge(acmeLive, LIVE_PAN);
    const eventId = await createdEventOf(charge.id);
    const delivery = await eventually(
      async () => (await acmeLive.get(`/v2/events/${eventId}/deliveries`)).body.data.find((row: any) => row.status === 'failed'),
      20_000,
      'the live delivery to fail',
    );
    expect(delivery).toMatchObject({ endpoint: endpoint.id, attempts: 3, last_status_code: null });
    expect(delivery.last_error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/);
    expect(receiver.received.length).toBe(before);
    expect((await acmeLive.request('DELETE', `/v2/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
  });
});

describe('deliveries and resend', () => {
  it('lists an event’s deliveries; resend queues a new one now, sent with the same webhook-id', async () => {
    const api = client(server.url, (await createKeys(server.dataDir, 'resender')).secretKey);
    const endpoint = await create(api, { url: receiver.url, events: ['charge.created'] });
    const eventId = await createdEventOf((await createCharge(api, TEST_PANS.visa)).id);
    const delivered = await eventually(
      async () => (await api.get(`/v2/events/${eventId}/deliveries`)).body.data.find((row: any) => row.status === 'succeeded'),
      10_000,
      'the first delivery',
    );
    expect(delivered).toEqual({
      type: 'webhook_delivery',
      endpoint: endpoint.id,
      event: eventId,
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt: null,
    });

    const resent = await api.post(`/v2/events/resend/${eventId}`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ type: 'list', url: `/v2/events/${eventId}/deliveries`, has_more: false });
    expect(resent.body.data).toHaveLength(1);
    expect(resent.body.data[0]).toMatchObject({
      endpoint: endpoint.id,
      event: eventId,
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
    });
    expect(Math.abs(resent.body.data[0].next_attempt - Date.now() / 1000)).toBeLessThan(5);
    await eventually(async () => (receiver.received.filter((request) => request.id === eventId).length === 2 ? true : undefined), 10_000, 'the resent webhook');

    const explicit = await api.post(`/v2/events/resend/${eventId}`, { endpoint: endpoint.id });
    expect(explicit.body.data).toHaveLength(1);
    const listed = await eventually(
      async () => {
        const rows = (await api.get(`/v2/events/${eventId}/deliveries`)).body.data;
        return rows.length === 3 && rows.every((row: any) => row.status === 'succeeded') ? rows : undefined;
      },
      10_000,
      'three succeeded deliveries',
    );
    expect(listed.map((row: any) => row.endpoint)).toEqual([endpoint.id, endpoint.id, endpoint.id]);

    expectError(await api.post('/v2/events/resend/evt_000000000000000000000000'), 404, 'RESOURCE_MISSING', { parameter: 'id' });
    expectError(await api.get('/v2/events/evt_000000000000000000000000/deliveries'), 404, 'RESOURCE_MISSING', { parameter: 'id' });
    expectError(await api.post(`/v2/events/resend/${eventId}`, { endpoint: 'we_000000000000000000000000' }), 400, 'RESOURCE_MISSING', {
      parameter: 'endpoint',
    });

    // An endpoint receives only the names it takes, resent or not.
    const capturesOnly = await create(api, { url: receiver.url, events: ['charge.captured'] });
    const refused = await api.post(`/v2/events/resend/${eventId}`, { endpoint: capturesOnly.id });
    expectError(refused, 400, 'PARAMETER_INVALID', { parameter: 'endpoint' });
    expect(refused.body.error.message).toBe('Invalid parameter endpoint: that webhook endpoint does not take charge.created events.');
    expect((await api.get(`/v2/events/${eventId}/deliveries`)).body.data.map((row: any) => row.endpoint)).not.toContain(capturesOnly.id);
  });

  it('deleting an endpoint ends its pending deliveries', async () => {
    const api = client(server.url, (await createKeys(server.dataDir, 'deleter')).secretKey);
    const closed = await startReceiver();
    await closed.close();
    const endpoint = await create(api, { url: closed.url, events: ['charge.created'] });
    const eventId = await createdEventOf((await createCharge(api, TEST_PANS.visa)).id);
    expect((await api.request('DELETE', `/v2/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
    const [delivery] = (await api.get(`/v2/events/${eventId}/deliveries`)).body.data;
    expect(delivery).toMatchObject({ endpoint: endpoint.id, status: 'failed', last_error: 'endpoint deleted', next_attempt: null });
    expectError(await api.post(`/v2/events/resend/${eventId}`, { endpoint: endpoint.id }), 400, 'RESOURCE_MISSING', { parameter: 'endpoint' });
    expect((await api.post(`/v2/events/resend/${eventId}`)).body.data).toEqual([]);
  });

  it('CORS lets a browser send DELETE', async () => {
    const response = await fetch(`${server.url}/v2/webhook_endpoints/we_1`, {
      method: 'OPTIONS',
      headers: { origin: 'https://dashboard.example', 'access-control-request-method': 'DELETE', 'access-control-request-headers': 'x-api-key' },
    });
    expect(response.status).toBeLessThan(300);
    expect((response.headers.get('access-control-allow-methods') ?? '').split(',').map((method) => method.trim())).toContain('DELETE');
  });
});
