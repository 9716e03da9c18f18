import { CHARGE_EXPORT_COLUMNS } from '@payframe/contract';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, chargeParams, createCharge, createToken, TEST_PANS } from './client.ts';
import { ADMIN, type DashboardClient, dashboardClient, dashboardFixture, VIEWER } from './dashboard-support.ts';
import type { InProcessTestServer } from './harness.ts';

// The dashboard API behind the charges export, webhook endpoint updates, users and passwords.
let server: InProcessTestServer;
let api: Client;
let admin: DashboardClient;
let viewer: DashboardClient;

beforeAll(async () => {
  ({ server, api, admin, viewer } = await dashboardFixture('merchant'));
});
afterAll(() => server?.stop());

async function exportCsv(query: string) {
  const response = await server.fetch(`${server.url}/dashboard/api/charges/export?${query}`, { headers: { cookie: admin.cookie ?? '' } });
  // RFC 4180 as a reader other than our writer sees it: records end in CRLF, quoted cells may hold commas,
  // doubled quotes and line breaks, and every row is as wide as the header. A refusal is JSON, not CSV.
  const text = await response.text();
  return { response, rows: response.ok ? parseCsv(text, { record_delimiter: '\r\n' }) : [] };
}

describe('charges with the shopper’s e-mail, and their CSV export', () => {
  it('exports every charge of the filter across pages, each as the API lists it, text cells escaped and defused', async () => {
    const since = Math.floor(Date.now() / 1000) - 1;
    const hostile = await createCharge(api, TEST_PANS.visa, {
      description: '=HYPERLINK("http://evil.example","x"), then\nmore',
      txn_reference: '+order,"7"',
      amount: '123456',
      currency: 'kwd',
    });
    const made = [hostile.id];
    for (let batch = 0; batch < 11; batch++) {
      const charges = await Promise.all(Array.from({ length: 10 }, () => createCharge(api, TEST_PANS.visa, { amount: '1050' })));
      made.push(...charges.map((charge) => charge.id));
    }

    const listed = await admin.get(`/charges?mode=test&limit=5&created[gte]=${since}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data[0]).toMatchObject({ email: 'ada@example.com', description: 'Order #1' });

    const { response, rows } = await exportCsv(`mode=test&created[gte]=${since}&limit=2`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="charges-test-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...lines] = rows;
    expect(header).toEqual([...CHARGE_EXPORT_COLUMNS]);
    expect(lines).toHaveLength(made.length);
    // The API's own list of the same filter, page after page, is the order to match.
    const fromApi: string[] = [];
    for (let page = await api.get(`/v2/charges?limit=100&created[gte]=${since}`); ; ) {
      fromApi.push(...page.body.data.map((charge: { id: string }) => charge.id));
      if (!page.body.has_more) break;
      page = await api.get(`/v2/charges?limit=100&created[gte]=${since}&starting_after=${fromApi.at(-1)}`);
    }
    expect(new Set(fromApi)).toEqual(new Set(made));
    expect(lines.map((line) => line[0])).toEqual(fromApi);

    const byId = new Map(lines.map((line) => [line[0], Object.fromEntries(CHARGE_EXPORT_COLUMNS.map((column, index) => [column, line[index]]))]));
    const apiCharge = (await api.get(`/v2/charges/${made[5]}`)).body;
    expect(byId.get(made[5] as string)).toEqual({
      id: apiCharge.id,
      created: new Date(apiCharge.created * 1000).toISOString().replace('.000Z', 'Z'),
      amount: '10.50',
      currency: 'EUR',
      status: apiCharge.status,
      amount_captured: '0.00',
      amount_refunded: '0.00',
      fees: '',
      description: 'Order #1',
      txn_reference: '',
      email: 'ada@example.com',
      brand: 'VISA',
      last4: '4242',
    });
    expect(byId.get(hostile.id)).toMatchObject({
      amount: '123.456',
      currency: 'KWD',
      description: `'=HYPERLINK("http://evil.example","x"), then\nmore`,
      txn_reference: `'+order,"7"`,
    });

    const filtered = await exportCsv(`mode=test&q=${encodeURIComponent('+order,"7"')}`);
    expect(filtered.rows.slice(1).map((line) => line[0])).toEqual([hostile.id]);
    expect((await exportCsv('mode=live')).rows).toEqual([[...CHARGE_EXPORT_COLUMNS]]);
    expect((await exportCsv('mode=test&status=LOST')).response.status).toBe(400);
    const anonymous = await server.fetch(`${server.url}/dashboard/api/charges/export?mode=test`);
    expect(anonymous.status).toBe(401);
  });

  it('keeps the e-mail as the shopper gave it', async () => {
    const token = await createToken(api, TEST_PANS.visa, { shopper: { ip: '203.0.113.7', session_id: 's', email: 'Grace@Example.COM' } });
    const charge = (await api.post('/v2/charges', chargeParams(token.id))).body;
    const page = await admin.get(`/charges?mode=test&q=${charge.id}`);
    expect(page.body.data.map((row: { email: string }) => row.email)).toEqual(['Grace@Example.COM']);
  });
});

describe('webhook endpoints through the dashboard', () => {
  it('an admin updates and disables an endpoint; a viewer may not', async () => {
    const created = await admin.post('/webhook_endpoints?mode=test', { url: 'http://127.0.0.1:9/hooks', events: ['charge.created'], description: 'orders' });
    expect(created.status).toBe(200);
    const id = created.body.id;
    const updated = await admin.post(`/webhook_endpoints/${id}?mode=test`, { disabled: true, events: ['charge.captured', 'charge.refunded'] });
    expect(updated.body).toMatchObject({ id, disabled: true, events: ['charge.captured', 'charge.refunded'], description: 'orders' });
    expect((await admin.post(`/webhook_endpoints/${id}?mode=test`, { disabld: true })).body.error).toMatchObject({ code: 'PARAMETER_UNKNOWN' });
    expect((await viewer.post(`/webhook_endpoints/${id}?mode=test`, { disabled: false })).status).toBe(403);
    expect((await admin.post(`/webhook_endpoints/${id}?mode=live`, { disabled: false })).status).toBe(403);
  });
});

describe('users of the account', () => {
  it('an admin lists, invites with a password shown once, and removes; a viewer does none of it', async () => {
    const listed = await admin.get('/users');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((user: { email: string }) => user.email)).toEqual([ADMIN.email, VIEWER.email]);
    expect(listed.body.data[0]).not.toHaveProperty('password');

    const invited = await admin.post('/users', { email: 'New.Hire@Shop.test', role: 'viewer' });
    expect(invited.status).toBe(200);
    expect(invited.body).toMatchObject({ email: 'new.hire@shop.test', role: 'viewer' });
    expect(invited.body.password.length).toBeGreaterThanOrEqual(12);
    const hire = dashboardClient(server);
    expect((await hire.login('new.hire@shop.test', invited.body.password)).status).toBe(200);
    expect((await admin.get('/users')).body.data).not.toContainEqual(expect.objectContaining({ password: expect.anything() }));

    expect((await admin.post('/users', { email: 'new.hire@shop.test', role: 'admin' })).body.error).toMatchObject({
      code: 'PARAMETER_INVALID',
      parameter: 'email',
    });
    expect((await admin.post('/users', { email: 'x@shop.test', role: 'owner' })).body.error).toMatchObject({ parameter: 'role' });
    expect((await viewer.get('/users')).status).toBe(403);
    expect((await viewer.post('/users', { email: 'v@shop.test', role: 'admin' })).status).toBe(403);
    expect((await viewer.request('DELETE', `/users/${invited.body.id}`)).status).toBe(403);

    const self = listed.body.data[0].id;
    expect((await admin.request('DELETE', `/users/${self}`)).body.error).toMatchObject({ code: 'PARAMETER_INVALID', parameter: 'id' });
    const removed = await admin.request('DELETE', `/users/${invited.body.id}`);
    expect(removed.body).toEqual({ id: invited.body.id, deleted: true });
    expect((await hire.get('/session')).status).toBe(401);
    expect((await admin.request('DELETE', `/users/${invited.body.id}`)).status).toBe(404);
  });

  it('a user changes their own password, which ends their other sessions only', async () => {
    const email = 'changer@shop.test';
    const first = (await admin.post('/users', { email, role: 'viewer' })).body.password;
    const here = dashboardClient(server);
    const elsewhere = dashboardClient(server);
    await here.login(email, first);
    await elsewhere.login(email, first);

    const wrong = await here.post('/password', { current_password: 'not the password', new_password: 'a brand new passphrase' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'PARAMETER_INVALID', parameter: 'current_password' });
    expect((await here.post('/password', { current_password: first, new_password: 'short' })).body.error).toMatchObject({ parameter: 'new_password' });
    expect((await here.post('/password', { current_password: first, new_password: 'a brand new passphrase', extra: 1 })).body.error.code).toBe(
      'PARAMETER_UNKNOWN',
    );

    expect((await here.post('/password', { current_password: first, new_password: 'a brand new passphrase' })).body).toEqual({ ok: true });
    expect((await here.get('/session')).status).toBe(200);
    expect((await elsewhere.get('/session')).status).toBe(401);
    expect((await dashboardClient(server).login(email, first)).status).toBe(401);
    expect((await dashboardClient(server).login(email, 'a brand new passphrase')).status).toBe(200);
    expect((await here.post('/password', { current_password: 'a brand new passphrase', new_password: 'x'.repeat(12) }, { csrf: false })).status).toBe(403);
  });
});
