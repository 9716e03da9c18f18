import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, expectErrorShape, TEST_PANS } from './client.ts';
import { type DashboardClient, dashboardClient, dashboardFixture, HTTPS } from './dashboard-support.ts';
import { createKeys, type InProcessTestServer } from './harness.ts';

let server: InProcessTestServer;
let api: Client;
let admin: DashboardClient;
let viewer: DashboardClient;

beforeAll(async () => {
  ({ server, api, admin, viewer } = await dashboardFixture('shop'));
});
afterAll(() => server?.stop());

describe('charges through the dashboard', () => {
  it('lists charges made through the API, newest first, with the /v2 filters and envelope', async () => {
    const first = await createCharge(api, TEST_PANS.visa, { txn_reference: 'order-dash-1' });
    const second = await createCharge(api, TEST_PANS.visa, { txn_reference: 'order-dash-2' });
    const page = await admin.get('/charges?mode=test&limit=25');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ type: 'list', has_more: false });
    const ids = page.body.data.map((charge: { id: string }) => charge.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    const found = await admin.get('/charges?mode=test&txn_reference=order-dash-1');
    expect(found.body.data.map((charge: { id: string }) => charge.id)).toEqual([first.id]);
    expect((await admin.get('/charges?mode=test&last4=4242')).body.data.length).toBeGreaterThanOrEqual(2);
    expect((await admin.get('/charges?mode=live')).body.data).toEqual([]);
    const bad = await admin.get('/charges?mode=test&status=NOPE');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'PARAMETER_INVALID', parameter: 'status' });
    const noMode = await admin.get('/charges');
    expect(noMode.status).toBe(400);
    expect(noMode.body.error.parameter).toBe('mode');
  });

  it('takes JSON bodies only: text, form or XML is 415, and the answer says to send JSON', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '1000' });
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const refused = await admin.post(`/charges/${charge.id}/refund?mode=test`, { amount: 100 }, { headers: { 'content-type': contentType } });
      expectErrorShape(refused.body);
      expect(refused.status).toBe(415);
      expect(refused.body.error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('application/json') });
      expect(refused.body.error.message).not.toContain('form');
    }
    expect((await api.get(`/v2/charges/${charge.id}`)).body.amount_refunded).toBe(0);
  });

  it('shows a charge, captures it, refunds part of it, and its timeline holds each event', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '1000' });
    expect((await admin.get(`/charges/${charge.id}?mode=test`)).body).toEqual((await api.get(`/v2/charges/${charge.id}`)).body);
    expect((await admin.get(`/charges/${charge.id}?mode=live`)).status).toBe(404);

    expect((await admin.post(`/charges/${charge.id}/capture?mode=test`)).body).toMatchObject({ id: charge.id, status: 'CHARGE_SUCCESS' });
    const refund = await admin.post(`/charges/${charge.id}/refund?mode=test`, { amount: 250 });
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({ type: 'refund', amount: 250, charge: charge.id });
    expect((await api.get(`/v2/charges/${charge.id}`)).body.amount_refunded).toBe(250);

    const timeline = await admin.get(`/events?mode=test&charge=${charge.id}`);
    expect(timeline.status).toBe(200);
    expect(timeline.body.data.map((event: { name: string }) => event.name).sort()).toEqual(['charge.captured', 'charge.created', 'charge.refunded']);
    expect(timeline.body).toEqual((await api.get(`/v2/events?charge=${charge.id}`)).body);
  });

  it('cancels a pending charge, and a refused move answers the API error', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    expect((await admin.post(`/charges/${charge.id}/cancel?mode=test`)).body).toMatchObject({ id: charge.id, reason: 'CANCEL_USING_API' });
    const again = await admin.post(`/charges/${charge.id}/capture?mode=test`);
    expect(again.status).toBe(402);
    expectErrorShape(again.body);
  });

  it('refuses live-mode money movement while no acquirer is configured', async () => {
    const answer = await admin.post('/charges/C0000000000000000/capture?mode=live', undefined, HTTPS);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('LIVE_MODE_NOT_ALLOWED');
  });
});

describe('API keys through the dashboard', () => {
  it('creates a pair shown once, lists hints only with the last use, and revokes a key so /v2 refuses it', async () => {
    const created = await admin.post('/keys?mode=test');
    expect(created.status).toBe(200);
    expect(created.body.secretKey).toMatch(/^sk_test_/);
    expect(created.body.publishableKey).toMatch(/^pk_test_/);
    const secretRow = created.body.keys.find((key: { kind: string }) => key.kind === 'secret');
    expect(secretRow).toMatchObject({ mode: 'test', hint: `sk_test_…${created.body.secretKey.slice(-4)}`, last_used: null, revoked: null });

    const before = Math.floor(Date.now() / 1000);
    expect((await client(server, created.body.secretKey).get('/v2/charges')).status).toBe(200);
    const listed = await admin.get('/keys?mode=test');
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secretKey);
    const used = listed.body.data.find((key: { id: string }) => key.id === secretRow.id);
    expect(used.last_used).toBeGreaterThanOrEqual(before - 1);

    const revoked = await admin.post(`/keys/${secretRow.id}/revoke?mode=test`);
    expect(revoked.body).toMatchObject({ id: secretRow.id, revoked: expect.any(Number) });
    expect((await client(server, created.body.secretKey).get('/v2/charges')).status).toBe(401);
    expect((await admin.post(`/keys/${secretRow.id}/revoke?mode=live`, undefined, HTTPS)).status).toBe(404);
    expect((await admin.get('/keys?mode=live')).body.data).toEqual([]);
  });
});

describe('webhooks through the dashboard', () => {
  it('adds an endpoint (secret once), lists it, shows an event’s deliveries, resends, and deletes it', async () => {
    const created = await admin.post('/webhook_endpoints?mode=test', { url: 'http://127.0.0.1:9/hooks', events: ['charge.created'] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.secret).toEqual(expect.any(String));
    const listed = await admin.get('/webhook_endpoints?mode=test');
    expect(listed.body.data.map((endpoint: { id: string }) => endpoint.id)).toContain(created.body.id);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    const charge = await createCharge(api, TEST_PANS.visa);
    const event = (await admin.get(`/events?mode=test&charge=${charge.id}&name=charge.created`)).body.data[0];
    const deliveries = await admin.get(`/events/${event.id}/deliveries?mode=test`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data.length).toBe(1);
    const resent = await admin.post(`/events/${event.id}/resend?mode=test`, {});
    expect(resent.status).toBe(200);
    expect(resent.body.data.length).toBe(1);

    const deleted = await admin.request('DELETE', `/webhook_endpoints/${created.body.id}?mode=test`);
    expect(deleted.body).toEqual({ type: 'webhook_endpoint', id: created.body.id, deleted: true });
  });
});

describe('the test clock and the account name', () => {
  it('reads and advances the account’s test clock', async () => {
    const before = await admin.get('/clock');
    expect(before.body).toMatchObject({ type: 'test_clock', offset: expect.any(Number) });
    const advanced = await admin.post('/clock', { advance_seconds: 86_400 });
    expect(advanced.body.offset).toBe(before.body.offset + 86_400);
    expect((await api.get('/v2/test_helpers/clock')).body.offset).toBe(advanced.body.offset);
  });

  it('renames the account: the session, the settings and the 3-D Secure page show the new name', async () => {
    expect((await admin.get('/account')).body.name).toBe('shop');
    const renamed = await admin.post('/account', { name: 'Librairie <Étoile>' });
    expect(renamed.body).toMatchObject({ name: 'Librairie <Étoile>' });
    expect((await viewer.get('/session')).body.account.name).toBe('Librairie <Étoile>');
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const page = await (await server.fetch(charge.threedSecure.redirect)).text();
    expect(page).toContain('data-testid="merchant">Librairie &lt;Étoile></dd>');
    expect((await admin.post('/account', { name: '' })).status).toBe(400);
    // The CLI still finds the account by its handle.
    expect((await createKeys(server.dataDir, 'shop')).account).toBe('shop');
  });
});

describe('a viewer', () => {
  it('reads every page’s data but gets 403 ROLE_NOT_ALLOWED on every mutation, and nothing changes', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    for (const path of [
      '/charges?mode=test',
      `/charges/${charge.id}?mode=test`,
      '/events?mode=test',
      '/keys?mode=test',
      '/webhook_endpoints?mode=test',
      '/clock',
      '/account',
    ]) {
      expect((await viewer.get(path)).status, path).toBe(200);
    }
    const clock = (await viewer.get('/clock')).body.offset;
    const mutations: Array<[string, string, unknown]> = [
      ['POST', `/charges/${charge.id}/capture?mode=test`, undefined],
      ['POST', `/charges/${charge.id}/cancel?mode=test`, undefined],
      ['POST', `/charges/${charge.id}/refund?mode=test`, { amount: 100 }],
      ['POST', '/events/evt_x/resend?mode=test', {}],
      ['POST', '/keys?mode=test', undefined],
      ['POST', '/keys/some-key/revoke?mode=test', undefined],
      ['POST', '/webhook_endpoints?mode=test', { url: 'http://127.0.0.1:9/x' }],
      ['DELETE', '/webhook_endpoints/we_x?mode=test', undefined],
      ['POST', '/webhook_endpoints/we_x?mode=test', { disabled: true }],
      ['POST', '/users', { email: 'x@shop.test', role: 'admin' }],
      ['POST', '/clock', { advance_seconds: 60 }],
      ['POST', '/account', { name: 'Taken over' }],
    ];
    for (const [method, path, body] of mutations) {
      const answer = await viewer.request(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.error.code).toBe('ROLE_NOT_ALLOWED');
    }
    expect((await viewer.get(`/charges/${charge.id}?mode=test`)).body.status).toBe('PENDING');
    expect((await viewer.get('/clock')).body.offset).toBe(clock);
    expect((await viewer.get('/account')).body.name).not.toBe('Taken over');
  });
});

describe('optional bodies', () => {
  it('refunds the whole remainder when the refund comes with no body at all', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '1000' });
    expect((await admin.post(`/charges/${charge.id}/capture?mode=test`)).status).toBe(200);
    const refund = await admin.post(`/charges/${charge.id}/refund?mode=test`);
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body).toMatchObject({ type: 'refund', charge: charge.id, amount: 1000 });
    expect((await api.get(`/v2/charges/${charge.id}`)).body.status).toBe('REFUNDED');
  });

  it('resends an event to each of its endpoints when the resend comes with no body at all', async () => {
    const endpoint = await admin.post('/webhook_endpoints?mode=test', { url: 'http://127.0.0.1:9/hooks', events: ['charge.created'] });
    expect(endpoint.status).toBe(200);
    const charge = await createCharge(api, TEST_PANS.visa);
    const event = (await admin.get(`/events?mode=test&charge=${charge.id}&name=charge.created`)).body.data[0];
    const resent = await admin.post(`/events/${event.id}/resend?mode=test`);
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body.data.map((delivery: { endpoint: string }) => delivery.endpoint)).toEqual([endpoint.body.id]);
    expect((await admin.request('DELETE', `/webhook_endpoints/${endpoint.body.id}?mode=test`)).status).toBe(200);
  });

  it('still names a missing required parameter when a body-taking route gets no body', async () => {
    const answer = await admin.post('/clock');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'PARAMETER_MISSING', parameter: 'advance_seconds' });
  });
});

describe('JSON bodies as /v2 reads them', () => {
  it('refuses JSON nested deeper than 6 levels, before any route walks it', async () => {
    let deep: unknown = 1;
    for (let level = 0; level < 7; level++) deep = { next: deep };
    const answer = await admin.post('/account', { name: 'Shop', extra: deep });
    expectErrorShape(answer.body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'PARAMETER_INVALID', message: 'The JSON body is nested deeper than 6 levels.' });
  });
});

describe('a method a known URL does not serve', () => {
  const refused: Array<[string, string, string]> = [
    ['PUT', '/clock', 'GET, POST, HEAD'],
    ['DELETE', '/charges/C00000000000000000001?mode=test', 'GET, HEAD'],
    ['PATCH', '/account', 'GET, POST, HEAD'],
    ['GET', '/charges/C00000000000000000001/refund?mode=test', 'POST'],
    ['POST', '/charges?mode=test', 'GET, HEAD'],
    ['GET', '/webhook_endpoints/we_x?mode=test', 'POST, DELETE'],
    ['DELETE', '/session', 'GET, HEAD'],
    ['GET', '/logout', 'POST'],
  ];
  it.each(refused)('%s %s is 405 METHOD_NOT_ALLOWED with Allow: %s', async (method, path, allow) => {
    const answer = await admin.request(method, path);
    expectErrorShape(answer.body);
    expect(answer.status).toBe(405);
    expect(answer.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(answer.headers.get('allow')).toBe(allow);
  });

  it('comes after the gate: no session is 401, and a viewer’s mutation is 403', async () => {
    expect((await dashboardClient(server).request('PUT', '/clock')).status).toBe(401);
    const answer = await viewer.request('PUT', '/clock');
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('ROLE_NOT_ALLOWED');
  });

  it('leaves an unknown URL a 404', async () => {
    const answer = await admin.request('PUT', '/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('ROUTE_NOT_FOUND');
  });
});

// Last: it makes live keys, which the keys test above expects none of.
describe('live mode over plain HTTP', () => {
  it('refuses a new live key and every live-mode mutation with 403 HTTPS_REQUIRED, as /v2 does; reads still answer', async () => {
    for (const path of [
      '/keys?mode=live',
      '/charges/C0000000000000000/capture?mode=live',
      '/charges/C0000000000000000/refund?mode=live',
      '/keys/key_x/revoke?mode=live',
    ]) {
      const refused = await admin.post(path, path.includes('refund') ? { amount: 100 } : undefined);
      expectErrorShape(refused.body);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.code, path).toBe('HTTPS_REQUIRED');
    }
    const hook = await admin.post('/webhook_endpoints?mode=live', { url: 'https://hooks.example/payframe' });
    expect(hook.status).toBe(403);
    expect(hook.body.error.code).toBe('HTTPS_REQUIRED');
    expect((await admin.get('/keys?mode=live')).body.data).toEqual([]);
    // The same request through the trusted proxy's HTTPS makes the live pair.
    const created = await admin.post('/keys?mode=live', undefined, HTTPS);
    expect(created.status).toBe(200);
    expect(created.body.secretKey).toMatch(/^sk_live_/);
  });
});
