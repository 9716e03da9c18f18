import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createCharge, expectErrorShape, TEST_PANS } from './client.ts';
import { dashboardClient, type DashboardClient, dashboardFixture } from './dashboard-support.ts';
import type { TestServer } from './harness.ts';

let server: TestServer;
let api: Client;
let admin: DashboardClient;
let viewer: DashboardClient;

beforeAll(async () => {
  ({ server, api, admin, viewer } = await dashboardFixture('shop'));
});
afterAll(() => server?.stop());

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
    ['POST', '/webhook_endpoints/we_x?mode=test', 'DELETE'],
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
    expect((await dashboardClient(server.url).request('PUT', '/clock')).status).toBe(401);
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
