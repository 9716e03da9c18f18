import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, chargeParams, client, createCharge, expectErrorShape, rawRequest, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, type Keys, startServer, type TestServer } from './harness.ts';
import { type Answer, agent, apiKeyHeader, type HostileRequest, hostileBody, idempotencyHeader, pathId, queryString, send } from './hostile-requests.ts';

/**
 * Property tests over real HTTP against one real server process: every endpoint gets arbitrary
 * hostile requests (see hostile-requests.ts), and every answer is a success or a documented 4xx in
 * the JSON error shape of docs/api.md "Errors" — never a 5xx, never a hang. Afterwards the process is unharmed.
 */

const NUM_RUNS = 120;

/** The 4xx codes of docs/api.md "Error codes" and their statuses (RESOURCE_MISSING is 400 for the `token` parameter). */
const DOCUMENTED: Record<string, number[]> = {
  PARAMETER_MISSING: [400],
  PARAMETER_INVALID: [400],
  PARAMETER_UNKNOWN: [400],
  RESOURCE_MISSING: [400, 404],
  IDEMPOTENCY_KEY_REUSED: [400],
  INVALID_API_KEY: [401],
  DECLINED: [402],
  EXPIRED_CARD: [402],
  INCORRECT_NUMBER: [402],
  INCORRECT_CVC: [402],
  TOKEN_ALREADY_USED: [402],
  CHARGE_ALREADY_CAPTURED: [402],
  CHARGE_ALREADY_REFUNDED: [402],
  CHARGE_EXPIRED: [402],
  CHARGE_CANCELED: [402],
  AUTHENTICATION_REQUIRED: [402],
  AUTHENTICATION_FAILED: [402],
  AUTHENTICATION_NOT_PENDING: [402],
  AMOUNT_EXCEEDS_REMAINING: [402],
  PUBLISHABLE_KEY_NOT_ALLOWED: [403],
  HTTPS_REQUIRED: [403],
  LIVE_MODE_NOT_ALLOWED: [403],
  ROUTE_NOT_FOUND: [404],
  METHOD_NOT_ALLOWED: [405],
  IDEMPOTENCY_CONFLICT: [409],
  BODY_TOO_LARGE: [413],
  UNSUPPORTED_MEDIA_TYPE: [415],
  RATE_LIMITED: [429],
};
const SUCCESS_TYPES = ['token', 'charge', 'refund', 'test_clock', 'list', 'event'];

let server: TestServer;
/** The fuzzed account; the follow-up checks use another one, untouched by the fuzz. */
let fuzzKeys: Keys;
let checkKeys: Keys;
let api: Client;
/** Real ids of the fuzzed account, so that some requests reach real objects. */
const ids: Record<'token' | 'pending' | 'captured' | 'threeds' | 'refund', string> = { token: '', pending: '', captured: '', threeds: '', refund: '' };
const seen = new Map<string, number>();

beforeAll(async () => {
  server = await startServer();
  [fuzzKeys, checkKeys] = await Promise.all([createKeys(server.dataDir, 'fuzz'), createKeys(server.dataDir, 'fuzz-check')]);
  api = client(server.url, fuzzKeys.secretKey);
  ids.token = (await api.post('/v2/tokens', tokenParams(TEST_PANS.visa))).body.id;
  ids.pending = (await createCharge(api, TEST_PANS.visa)).id;
  ids.threeds = (await createCharge(api, TEST_PANS.visa3ds)).id;
  const captured = await createCharge(api, TEST_PANS.visa, { amount: '99999' });
  ids.captured = captured.id;
  expect((await api.post(`/v2/charges/capture/${captured.id}`)).status).toBe(200);
  ids.refund = (await api.post(`/v2/charges/refund/${captured.id}`, { amount: '1' })).body.id;
});
afterAll(async () => {
  agent.destroy();
  await server?.stop();
});

/** Success, or a documented 4xx in the error shape; JSON and no-store either way. */
function expectDocumented(answer: Answer, request: HostileRequest): void {
  const context = `${request.method} ${request.path.slice(0, 120)} [${request.label}] → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, context).toBeLessThan(500);
  expect(answer.headers['content-type'], context).toMatch(/^application\/json/);
  expect(answer.headers['cache-control'], context).toMatch(/\bno-store\b/);
  let body: any;
  expect(() => (body = JSON.parse(answer.text)), context).not.toThrow();
  if (answer.status === 200) {
    expect(SUCCESS_TYPES, context).toContain(body.type);
  } else {
    expectErrorShape(body);
    expect(DOCUMENTED[body.error.code], context).toContain(answer.status);
    for (const key of Object.keys(body)) expect(['type', 'message', 'error'], context).toContain(key);
  }
  const outcome = answer.status === 200 ? '200' : `${answer.status} ${body.error.code}`;
  seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
}

type Endpoint = { method: string; path: (id: string) => string; base: () => Record<string, unknown>; id?: () => string[] };

const ENDPOINTS: Record<string, Endpoint> = {
  'POST /v2/tokens': { method: 'POST', path: () => '/v2/tokens', base: () => tokenParams(TEST_PANS.visa) },
  'GET /v2/tokens/:id': { method: 'GET', path: (id) => `/v2/tokens/${id}`, base: () => ({}), id: () => [ids.token] },
  'POST /v2/charges': { method: 'POST', path: () => '/v2/charges', base: () => chargeParams(ids.token) },
  'GET /v2/charges/:id': { method: 'GET', path: (id) => `/v2/charges/${id}`, base: () => ({}), id: () => [ids.pending, ids.captured] },
  'POST /v2/charges/capture/:id': {
    method: 'POST',
    path: (id) => `/v2/charges/capture/${id}`,
    base: () => ({}),
    id: () => [ids.pending, ids.threeds, ids.captured],
  },
  'POST /v2/charges/cancel/:id': { method: 'POST', path: (id) => `/v2/charges/cancel/${id}`, base: () => ({}), id: () => [ids.captured, ids.threeds] },
  'POST /v2/charges/refund/:id': { method: 'POST', path: (id) => `/v2/charges/refund/${id}`, base: () => ({ amount: '1' }), id: () => [ids.captured] },
  'GET /v2/charges/refund/:id': { method: 'GET', path: (id) => `/v2/charges/refund/${id}`, base: () => ({}), id: () => [ids.refund] },
  'GET /v2/test_helpers/clock': { method: 'GET', path: () => '/v2/test_helpers/clock', base: () => ({}) },
  'POST /v2/test_helpers/clock': { method: 'POST', path: () => '/v2/test_helpers/clock', base: () => ({ advance_seconds: '1' }) },
  'POST /v2/test_helpers/charges/:id/authenticate': {
    method: 'POST',
    path: (id) => `/v2/test_helpers/charges/${id}/authenticate`,
    base: () => ({ result: 'success' }),
    id: () => [ids.threeds, ids.pending],
  },
};

function hostileRequest(endpoint: Endpoint): fc.Arbitrary<HostileRequest> {
  return fc
    .record({
      method: fc.oneof(
        { arbitrary: fc.constant(endpoint.method), weight: 9 },
        { arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE'), weight: 1 },
      ),
      id: endpoint.id ? pathId(endpoint.id()) : fc.constant(''),
      query: queryString,
      body: hostileBody(endpoint.base()),
      key: apiKeyHeader(fuzzKeys),
      idempotency: idempotencyHeader,
    })
    .map(({ method, id, query, body, key, idempotency }) => {
      // Headers over Node's limit are refused and the connection closed before any body is read:
      // a body sent after them would only race the server's close.
      const refusedHeaders = (idempotency['idempotency-key']?.length ?? 0) > 16 * 1024;
      return {
        method,
        path: endpoint.path(id) + (query === undefined ? '' : `?${query}`),
        headers: { ...key, ...idempotency, ...(body.contentType === undefined || refusedHeaders ? {} : { 'content-type': body.contentType }) },
        body: refusedHeaders ? undefined : body.body,
        label: refusedHeaders ? 'headers over 16 KB, no body' : body.label,
      };
    });
}

describe('every endpoint answers hostile requests with a success or a documented 4xx', () => {
  it.each(Object.keys(ENDPOINTS))('%s', async (name) => {
    await fc.assert(
      fc.asyncProperty(hostileRequest(ENDPOINTS[name]!), async (request) => {
        expectDocumented(await send(server.url, request), request);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('reached every kind of answer, so the properties above tested something', () => {
    // Successes, validation errors, key errors, wrong methods, body limits and content types all came up.
    for (const outcome of [
      '200',
      '400 PARAMETER_INVALID',
      '400 PARAMETER_MISSING',
      '401 INVALID_API_KEY',
      '405 METHOD_NOT_ALLOWED',
      '413 BODY_TOO_LARGE',
      '415 UNSUPPORTED_MEDIA_TYPE',
    ]) {
      expect(seen.get(outcome) ?? 0, `${outcome} in ${JSON.stringify(Object.fromEntries(seen))}`).toBeGreaterThan(0);
    }
  });
});

describe('NUL characters', () => {
  it('are a 400 on the named parameter in every text field and path id, on both stores (PostgreSQL made them 500s)', async () => {
    const nul = 'a\u0000b';
    const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa, { shopper: { ip: '203.0.113.7', session_id: nul, email: 'ada@example.com' } }));
    expect([token.status, token.body.error?.parameter]).toEqual([400, 'shopper.session_id']);
    for (const [field, value] of [
      ['description', nul],
      ['return_url', `https://shop.example/${nul}`],
      ['token', nul],
    ] as const) {
      const charge = await api.post('/v2/charges', chargeParams(ids.token, { [field]: value }), { encoding: 'json' });
      expect([charge.status, charge.body.error?.parameter], field).toEqual([400, field]);
    }
    for (const path of ['/v2/charges/C1%00', '/v2/tokens/%00', '/v2/charges/refund/%00']) {
      const read = await api.get(path);
      expect([read.status, read.body.error?.code, read.body.error?.parameter], path).toEqual([400, 'PARAMETER_INVALID', 'id']);
    }
  });
});

describe('unpaired surrogates', () => {
  it('are a 400 on the named parameter from JSON escapes, and nothing is stored; an emoji is stored as sent', async () => {
    const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa));
    const raw = (fields: string) =>
      rawRequest(server.url, '/v2/charges', {
        method: 'POST',
        headers: { 'x-api-key': fuzzKeys.secretKey, 'content-type': 'application/json' },
        body: `{"token":"${token.body.id}","amount":100,"currency":"EUR","return_url":"https://shop.example/r",${fields}}`,
      });
    const broken = await raw('"description":"d\\udfff","txn_reference":"r"');
    expect([broken.status, broken.body.error?.code, broken.body.error?.parameter]).toEqual([400, 'PARAMETER_INVALID', 'description']);
    const emoji = await raw('"description":"d\\ud83d\\ude00","txn_reference":"r"');
    expect(emoji.status, JSON.stringify(emoji.body)).toBe(200);
    expect((await api.get(`/v2/charges/${emoji.body.id}`)).body.description).toBe('d\u{1F600}');
  });
});

describe('percent-escapes in a form body', () => {
  it('refuses escapes of bytes that are no UTF-8, and keeps a stray % as sent', async () => {
    const form = async (fields: string) => {
      const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa));
      return rawRequest(server.url, '/v2/charges', {
        method: 'POST',
        headers: { 'x-api-key': fuzzKeys.secretKey, 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${token.body.id}&amount=100&currency=EUR&return_url=https%3A%2F%2Fshop.example%2Fr&${fields}`,
      });
    };
    for (const broken of ['%ED%A0%80', 'x%C0%AE', '%FF']) {
      const refused = await form(`txn_reference=${broken}`);
      expect([refused.status, refused.body.error?.code], broken).toEqual([400, 'PARAMETER_INVALID']);
    }
    const kept = await form('description=50%off&txn_reference=caf%C3%A9');
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    expect([kept.body.description, kept.body.txn_reference]).toEqual(['50%off', 'café']);
  });
});

describe('the process afterwards', () => {
  it('is healthy, logged no server fault, and still runs a whole flow', async () => {
    expect((await client(server.url).get('/healthz')).body).toEqual({ status: 'ok' });
    expect(server.output()).not.toContain('"level":50');

    const check = client(server.url, checkKeys.secretKey);
    const charge = await createCharge(check, TEST_PANS.visa);
    expect(charge).toMatchObject({ status: 'PENDING', amount: 500, txn_reference: null });
    expect((await check.post(`/v2/charges/capture/${charge.id}`)).body).toMatchObject({ status: 'CHARGE_SUCCESS', fees: 33 });
    // No `amount` inherited from a polluted prototype: a refund without one gives back everything.
    expect((await check.post(`/v2/charges/refund/${charge.id}`)).body).toMatchObject({ amount: 500, status: 'REFUNDED' });
  });

  it('has no polluted Object.prototype: no injected name changes what a request means', async () => {
    const check = client(server.url, checkKeys.secretKey);
    // `token` and `amount` are still missing when not sent, `access` still keeps publishable keys off
    // secret routes, `methodNotAllowed`/`testOnly` still do not apply where unset.
    const missing = await check.post('/v2/charges', {}, { encoding: 'json' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'PARAMETER_MISSING', parameter: 'token' });
    const charge = await createCharge(check, TEST_PANS.visa);
    expect((await client(server.url, checkKeys.publishableKey).get(`/v2/charges/${charge.id}`)).status).toBe(403);
    expect((await check.get(`/v2/charges/${charge.id}`)).status).toBe(200);
    expect((await check.get('/v2/test_helpers/clock')).status).toBe(200);
  });
});
