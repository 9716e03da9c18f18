import { request as httpRequest } from 'node:http';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  type Client,
  chargeParams,
  client,
  createCharge,
  createToken,
  type Encoding,
  expectErrorShape,
  rawRequest,
  TEST_PANS,
  tokenParams,
} from './client.ts';
import { createKeys, type Keys, startServer, type TestServer } from './harness.ts';

/**
 * docs/design.md "Check order" and docs/api.md "Transport" over real HTTP: check order, CORS,
 * encodings, content negotiation and hostile bodies.
 */

let server: TestServer;
let keys: Keys;
let liveKeys: Keys;
let clockKeys: Keys;
let api: Client;
let publishable: Client;
let anonymous: Client;

beforeAll(async () => {
  server = await startServer();
  [keys, liveKeys, clockKeys] = await Promise.all([
    createKeys(server.dataDir, 'transport'),
    createKeys(server.dataDir, 'transport-live', 'live'),
    createKeys(server.dataDir, 'transport-clock'),
  ]);
  api = client(server.url, keys.secretKey);
  publishable = client(server.url, keys.publishableKey);
  anonymous = client(server.url);
});
afterAll(() => server?.stop());

const raw = (path: string, init: RequestInit) => rawRequest(server.url, path, init);

/** node:http sends header names exactly as written, unlike fetch, which lower-cases them. */
function rawHeaderRequest(path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${server.url}${path}`, { method: 'GET', headers }, (incoming) => {
      let text = '';
      incoming.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(text) }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('check order: key → HTTPS → publishable → route/method → body', () => {
  it('answers 401 before 404 on an unknown route', async () => {
    expectError(await anonymous.get('/v2/nowhere'), 401, 'INVALID_API_KEY');
    expectError(await anonymous.post('/v2/nowhere', { a: '1' }), 401, 'INVALID_API_KEY');
    expectError(await client(server.url, `sk_test_${'Z'.repeat(32)}`).get('/v2/nowhere'), 401, 'INVALID_API_KEY');
  });

  it('answers 401 before 405 and before any body check', async () => {
    expectError(await anonymous.request('DELETE', '/v2/charges/C0000000000000000000'), 401, 'INVALID_API_KEY');
    expectError(await raw('/v2/charges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"amount":' }), 401, 'INVALID_API_KEY');
    expectError(await raw('/v2/charges', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' }), 401, 'INVALID_API_KEY');
    expectError(
      await raw('/v2/charges', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'x'.repeat(1_100_000) }),
      }),
      401,
      'INVALID_API_KEY',
    );
  });

  it('answers a live key over plain HTTP with 403 HTTPS_REQUIRED before the publishable check, 404 and 400', async () => {
    expectError(await client(server.url, liveKeys.secretKey).get('/v2/nowhere'), 403, 'HTTPS_REQUIRED');
    expectError(await client(server.url, liveKeys.publishableKey).post('/v2/charges', chargeParams('x')), 403, 'HTTPS_REQUIRED');
    expectError(await client(server.url, liveKeys.secretKey).post('/v2/charges', { amount: '5.5' }), 403, 'HTTPS_REQUIRED');
  });

  it('answers a publishable key on a secret route with 403 before 404, 405 and 400', async () => {
    expectError(await publishable.get('/v2/charges/x'), 403, 'PUBLISHABLE_KEY_NOT_ALLOWED');
    expectError(await publishable.get('/v2/tokens/00000000-0000-4000-8000-000000000000'), 403, 'PUBLISHABLE_KEY_NOT_ALLOWED');
    expectError(await publishable.request('DELETE', '/v2/charges/x'), 403, 'PUBLISHABLE_KEY_NOT_ALLOWED');
    expectError(
      await raw('/v2/charges', { method: 'POST', headers: { 'x-api-key': keys.publishableKey, 'content-type': 'application/json' }, body: '{' }),
      403,
      'PUBLISHABLE_KEY_NOT_ALLOWED',
    );
  });

  it('answers a wrong method with a JSON 405 before reading the body', async () => {
    const response = await api.request<any>('PUT', '/v2/tokens', tokenParams(TEST_PANS.visa));
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.body.type).toBe('invalid_request_error');
    expectError(
      await raw('/v2/tokens/x', { method: 'POST', headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/json' }, body: '{' }),
      405,
      'METHOD_NOT_ALLOWED',
    );
    expectError(
      await raw('/v2/charges/refund/x', { method: 'PUT', headers: { 'x-api-key': keys.secretKey, 'content-type': 'text/plain' }, body: 'x' }),
      405,
      'METHOD_NOT_ALLOWED',
    );
  });

  it('answers an unknown route with a JSON 404 before reading the body', async () => {
    expectError(
      await raw('/v2/nowhere', { method: 'POST', headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/json' }, body: '{' }),
      404,
      'ROUTE_NOT_FOUND',
    );
  });

  it('checks the body only on a known route and method: 400, 413, 415', async () => {
    const headers = { 'x-api-key': keys.secretKey };
    expectError(await raw('/v2/charges', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{' }), 400, 'PARAMETER_INVALID');
    expectError(await raw('/v2/charges', { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: 'x' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(
      await raw('/v2/charges', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'x'.repeat(1_100_000) }),
      }),
      413,
      'BODY_TOO_LARGE',
    );
  });
});

describe('CORS', () => {
  const paths = ['/v2/tokens', '/v2/tokens/x', '/v2/charges', '/v2/charges/C1', '/v2/charges/capture/C1', '/v2/charges/cancel/C1', '/v2/charges/refund/C1'];

  it.each(paths)('answers the preflight of %s without a key', async (path) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, content-type, idempotency-key',
      },
    });
    // 200, as every success of the API: some clients take a 204 for a failure.
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').split(',').map((name) => name.trim().toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(['x-api-key', 'content-type', 'idempotency-key']));
    const methods = (response.headers.get('access-control-allow-methods') ?? '').split(',').map((name) => name.trim().toUpperCase());
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST']));
    expect(response.headers.get('access-control-allow-credentials')).not.toBe('true');
  });

  it.each<Record<string, string>>([{}, { origin: 'https://shop.example' }, { 'access-control-request-method': 'POST' }])(
    'answers an OPTIONS that is no full preflight (%o) as one, not with a plain-text error',
    async (headers) => {
      const response = await fetch(`${server.url}/v2/charges`, { method: 'OPTIONS', headers });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.text()).toBe('');
    },
  );

  it('lets a browser read successes and errors from any origin', async () => {
    const headers = { origin: 'https://shop.example' };
    const created = await publishable.post('/v2/tokens', tokenParams(TEST_PANS.visa), { headers });
    expect(created.status).toBe(200);
    expect(created.headers.get('access-control-allow-origin')).toBe('*');
    const refused = await publishable.post('/v2/tokens', tokenParams('4242424242424241'), { headers });
    expect(refused.status).toBe(402);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    const unauthenticated = await anonymous.get('/v2/charges/C1', { headers });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('access-control-allow-origin')).toBe('*');
    expect(unauthenticated.headers.get('access-control-allow-credentials')).not.toBe('true');
  });
});

describe('X-Api-Key', () => {
  it.each(['X-Api-Key', 'x-api-key', 'X-API-KEY', 'x-API-kEy'])('is read under the header name %s', async (name) => {
    const response = await rawHeaderRequest('/v2/test_helpers/clock', { [name]: keys.secretKey });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ type: 'test_clock', offset: 0 });
  });
});

describe('request encodings', () => {
  const year = new Date().getUTCFullYear() + 3;
  const card = { number: TEST_PANS.mastercardDebit, cvc: '123', exp_month: '7', exp_year: String(year), name: 'Grace Hopper' };
  const address = { address_line1: '1 Rue de Rivoli', city: 'Paris', zipcode: '75001', country: 'fr' };
  const shopper = { ip: '203.0.113.9', session_id: 'session-enc', email: 'grace@example.com' };

  /** The token without what must differ between two creations. */
  function comparable(response: ApiResponse): unknown {
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(typeof response.body.id).toBe('string');
    expect(typeof response.body.created).toBe('number');
    const { id: _id, created: _created, ...rest } = response.body;
    return rest;
  }

  it('gives equivalent tokens from urlencoded, multipart and JSON (strings or numbers)', async () => {
    const params = { card, address, shopper };
    const results: Array<[string, ApiResponse]> = [];
    for (const encoding of ['form', 'multipart', 'json'] as Encoding[]) {
      results.push([encoding, await api.post('/v2/tokens', params, { encoding })]);
    }
    const numbers = { card: { ...card, exp_month: 7, exp_year: year }, address, shopper };
    results.push(['json numbers', await api.post('/v2/tokens', numbers, { encoding: 'json' })]);
    const leadingZero = { card: { ...card, exp_month: '07' }, address, shopper };
    results.push(['leading zero', await api.post('/v2/tokens', leadingZero)]);

    const expected = {
      type: 'token',
      mode: 'test',
      card: {
        fundingType: 'DEBIT',
        country: 'FR',
        last4Digits: '5454',
        type: 'MASTERCARD_DEBIT',
        brand: 'MASTERCARD',
        name: 'Grace Hopper',
        authorization: 'NOT_AVAILABLE',
        addressLine1: '1 Rue de Rivoli',
        addressLine2: null,
        addressCity: 'Paris',
        addressState: null,
        addressZip: '75001',
        addressCountry: 'FR',
      },
    };
    for (const [label, response] of results) {
      expect(comparable(response), label).toMatchObject(expected);
      expect(comparable(response), label).toEqual(comparable(results[0]![1]));
    }
    const ids = new Set(results.map(([, response]) => response.body.id));
    expect(ids.size).toBe(results.length);
  });

  it('charges with amount as a JSON number or a digit string, and as a form field', async () => {
    for (const [encoding, amount] of [
      ['json', 1234],
      ['json', '1234'],
      ['form', '1234'],
      ['multipart', '1234'],
    ] as Array<[Encoding, number | string]>) {
      const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa));
      const charge = await api.post('/v2/charges', chargeParams(token.body.id, { amount }), { encoding });
      expect(charge.status, `${encoding} ${JSON.stringify(charge.body)}`).toBe(200);
      expect(charge.body).toMatchObject({ amount: 1234, currency: 'EUR' });
    }
  });

  it('accepts a card number with spaces', async () => {
    for (const encoding of ['form', 'json', 'multipart'] as Encoding[]) {
      const response = await api.post('/v2/tokens', tokenParams('4242 4242 4242 4242'), { encoding });
      expect(response.status, `${encoding} ${JSON.stringify(response.body)}`).toBe(200);
      expect(response.body.card).toMatchObject({ last4Digits: '4242', brand: 'VISA', type: 'VISA_CREDIT', country: 'US' });
    }
  });

  it('validates the same way whatever the encoding', async () => {
    for (const encoding of ['form', 'json', 'multipart'] as Encoding[]) {
      const params = tokenParams(TEST_PANS.visa);
      (params.card as Record<string, unknown>).exp_month = '13';
      expectError(await api.post('/v2/tokens', params, { encoding }), 400, 'PARAMETER_INVALID', { parameter: 'card.exp_month' });
    }
  });
});

describe('public endpoints', () => {
  it('GET /healthz answers 200 {"status":"ok"}', async () => {
    const response = await anonymous.get('/healthz');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('GET /v2/openapi.json is an OpenAPI 3.1 document of every /v2 path of the spec, no key needed', async () => {
    const response = await anonymous.get('/v2/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof response.body.info?.title).toBe('string');
    // Path parameter names are the document's choice: compare with them blanked out.
    const paths = new Map(
      Object.entries(response.body.paths as Record<string, Record<string, unknown>>).map(([path, item]) => [path.replace(/\{[^}]+\}/g, '{}'), item]),
    );
    const spec: Array<[string, string]> = [
      ['post', '/v2/tokens'],
      ['get', '/v2/tokens/{}'],
      ['post', '/v2/charges'],
      ['get', '/v2/charges/{}'],
      ['post', '/v2/charges/capture/{}'],
      ['post', '/v2/charges/refund/{}'],
      ['get', '/v2/charges/refund/{}'],
    ];
    for (const [method, path] of spec) {
      expect(paths.get(path)?.[method], `${method.toUpperCase()} ${path}`).toBeDefined();
    }
    for (const path of paths.keys()) expect(path).toMatch(/^\/v2\//);
  });
});

describe('responses', () => {
  it('answers every success with 200 JSON and Cache-Control: no-store', async () => {
    const responses: Array<[string, ApiResponse]> = [];
    const note = (label: string, response: ApiResponse) => {
      responses.push([label, response]);
      return response;
    };
    const token = note('create token', await api.post('/v2/tokens', tokenParams(TEST_PANS.visa3ds)));
    note('create token (publishable)', await publishable.post('/v2/tokens', tokenParams(TEST_PANS.visa)));
    note('retrieve token', await api.get(`/v2/tokens/${token.body.id}`));
    const charge = note('create charge', await api.post('/v2/charges', chargeParams(token.body.id)));
    note('retrieve charge', await api.get(`/v2/charges/${charge.body.id}`));
    note('authenticate', await api.post(`/v2/test_helpers/charges/${charge.body.id}/authenticate`, { result: 'success' }));
    note('capture', await api.post(`/v2/charges/capture/${charge.body.id}`));
    const refund = note('refund', await api.post(`/v2/charges/refund/${charge.body.id}`, { amount: '100' }));
    note('retrieve refund', await api.get(`/v2/charges/refund/${refund.body.id}`));
    const other = await createCharge(api, TEST_PANS.visa);
    note('cancel', await api.post(`/v2/charges/cancel/${other.id}`));
    const clockApi = client(server.url, clockKeys.secretKey);
    note('read clock', await clockApi.get('/v2/test_helpers/clock'));
    note('advance clock', await clockApi.post('/v2/test_helpers/clock', { advance_seconds: '60' }));

    for (const [label, response] of responses) {
      expect(response.status, `${label}: ${JSON.stringify(response.body)}`).toBe(200);
      expect(response.headers.get('content-type'), label).toMatch(/^application\/json/);
      expect(response.headers.get('cache-control'), label).toMatch(/\bno-store\b/);
      expect(typeof response.body, label).toBe('object');
    }
  });

  it('marks errors no-store too', async () => {
    for (const response of [
      await anonymous.get('/v2/charges/C1'),
      await api.get('/v2/charges/C0000000000000000000'),
      await api.get('/v2/nowhere'),
      await api.post('/v2/tokens', tokenParams('4242424242424241')),
    ]) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.headers.get('cache-control')).toMatch(/\bno-store\b/);
    }
  });
});

describe('shopper.ip', () => {
  const shopperWithoutIp = { session_id: 'session-ip', email: 'ada@example.com' };

  it('is taken from the connection for a publishable key', async () => {
    for (const encoding of ['form', 'json'] as Encoding[]) {
      const response = await publishable.post('/v2/tokens', tokenParams(TEST_PANS.visa, { shopper: shopperWithoutIp }), { encoding });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({ type: 'token', mode: 'test' });
    }
  });

  it('must be sent with a secret key', async () => {
    expectError(await api.post('/v2/tokens', tokenParams(TEST_PANS.visa, { shopper: shopperWithoutIp })), 400, 'PARAMETER_MISSING', {
      parameter: 'shopper.ip',
    });
    expectError(await api.post('/v2/tokens', tokenParams(TEST_PANS.visa, { shopper: shopperWithoutIp }), { encoding: 'json' }), 400, 'PARAMETER_MISSING', {
      parameter: 'shopper.ip',
    });
  });

  it('must be an IP address when sent', async () => {
    expectError(await api.post('/v2/tokens', tokenParams(TEST_PANS.visa, { shopper: { ...shopperWithoutIp, ip: 'localhost' } })), 400, 'PARAMETER_INVALID', {
      parameter: 'shopper.ip',
    });
  });
});

describe('hostile bodies', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const json = { 'content-type': 'application/json' };
  let deepJson = '1';
  for (let level = 0; level < 2000; level++) deepJson = `{"a":${deepJson}}`;

  const bodies: Array<[string, string, Record<string, string>, string]> = [
    ['/v2/tokens', 'form __proto__[x]', form, '__proto__[x]=1'],
    ['/v2/tokens', 'form constructor[prototype][x]', form, 'constructor[prototype][x]=1'],
    ['/v2/tokens', 'form card[__proto__][number]', form, `card[__proto__][number]=${TEST_PANS.visa}`],
    ['/v2/charges', 'form __proto__[amount]', form, '__proto__[amount]=500&__proto__[token]=x'],
    ['/v2/tokens', 'form deep nesting', form, 'card[a][b][c][d][e][f][g]=1'],
    ['/v2/tokens', 'form very deep nesting', form, `card${'[a]'.repeat(500)}=1`],
    ['/v2/tokens', 'JSON __proto__', json, '{"__proto__":{"x":1}}'],
    ['/v2/tokens', 'JSON constructor.prototype', json, '{"constructor":{"prototype":{"x":1}}}'],
    ['/v2/charges', 'JSON nested __proto__', json, '{"token":{"__proto__":{"x":1}}}'],
    ['/v2/tokens', 'JSON deep nesting', json, deepJson],
    ['/v2/tokens', 'JSON array body', json, '[1,2,3]'],
    ['/v2/tokens', 'JSON scalar body', json, '"card"'],
    ['/v2/tokens', 'JSON null body', json, 'null'],
  ];

  it.each(bodies)('%s: %s gets a 4xx JSON error', async (path, _label, headers, body) => {
    const response = await raw(path, { method: 'POST', headers: { 'x-api-key': keys.secretKey, ...headers }, body });
    expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(400);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expectErrorShape(response.body);
  });

  it('gets a 4xx JSON error for the same names in multipart', async () => {
    for (const names of [['__proto__'], ['constructor'], ['__proto__[x]'], ['constructor[prototype][x]'], ['card[a][b][c][d][e][f][g]']]) {
      const body = new FormData();
      for (const name of names) body.append(name, '1');
      const response = await raw('/v2/tokens', { method: 'POST', headers: { 'x-api-key': keys.secretKey }, body });
      expect(response.status, `${names.join()} ${JSON.stringify(response.body)}`).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expectErrorShape(response.body);
    }
  });

  it('refuses polluting names beside valid parameters by name, and never lets them change a token', async () => {
    const params = new URLSearchParams([
      ['__proto__[authorization]', 'REQUIRED'],
      ['constructor[prototype][authorization]', 'REQUIRED'],
      ...Object.entries({
        'card[number]': TEST_PANS.visa,
        'card[cvc]': '123',
        'card[exp_month]': '12',
        'card[exp_year]': String(new Date().getUTCFullYear() + 3),
        'card[name]': 'Ada Lovelace',
        'shopper[ip]': '203.0.113.7',
        'shopper[session_id]': 's',
        'shopper[email]': 'ada@example.com',
      }),
    ]);
    const refused = await raw('/v2/tokens', { method: 'POST', headers: { 'x-api-key': keys.secretKey }, body: params });
    expectError(refused, 400, 'PARAMETER_UNKNOWN', { parameter: '__proto__.authorization' });
    params.delete('__proto__[authorization]');
    const constructorName = await raw('/v2/tokens', { method: 'POST', headers: { 'x-api-key': keys.secretKey }, body: params });
    expectError(constructorName, 400, 'PARAMETER_UNKNOWN', { parameter: 'constructor' });
    // Nothing reached Object.prototype: a token made after is exactly what its parameters make.
    const clean = await createToken(api, TEST_PANS.visa);
    expect(clean.card.authorization).toBe('NOT_AVAILABLE');
    expect(({} as Record<string, unknown>).authorization).toBeUndefined();
  });

  it('leaves the server working afterwards', async () => {
    expect((await anonymous.get('/healthz')).body).toEqual({ status: 'ok' });
    expectError(await api.post('/v2/charges', {}, { encoding: 'json' }), 400, 'PARAMETER_MISSING', { parameter: 'token' });
    const charge = await createCharge(api, TEST_PANS.visa);
    expect(charge).toMatchObject({ status: 'PENDING', amount: 500 });
    expect(Object.keys(charge)).not.toContain('x');
    const captured = await api.post(`/v2/charges/capture/${charge.id}`);
    expect(captured.body).toMatchObject({ status: 'CHARGE_SUCCESS', fees: 33 });
  });
});

describe('a malformed URL', () => {
  it('answers 400 PARAMETER_INVALID in the JSON error shape, before routing', async () => {
    const response = await fetch(`${server.url}/v2/charges/%ZZ`, { headers: { 'x-api-key': 'anything' } });
    expect(response.status).toBe(400);
    const body = await response.json();
    expectErrorShape(body);
    expect(body.error.code).toBe('PARAMETER_INVALID');
  });
});
