import { gzipSync } from 'node:zlib';
import { type DeclineReason, ERROR_CODES, type ErrorBody, type ErrorCode } from '@payframe/contract';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  advanceClock,
  bracketed,
  type Client,
  chargeParams,
  client,
  createCharge,
  createToken,
  rawRequest,
  TEST_PANS,
  tokenParams,
} from './client.ts';
import { ADMIN, createUser, dashboardClient, VIEWER } from './dashboard-support.ts';
import { cli, createKeys, type Keys, startServer, storeArgs, type TestServer } from './harness.ts';
import { withinPropagation } from './propagation.ts';
import { RawConnection, rawRequest as rawHttpRequest } from './raw-http.ts';

/**
 * The error catalogue over real HTTP: every code of the contract's ERROR_CODES produced by a request
 * (or listed below with where it is), with the whole error body checked against the code's status
 * and type. The catalogue is read, not restated, so that a code added to it fails here until a
 * request produces it; errors-documented.test.ts (in the contract) holds the catalogue to the table
 * of docs/api.md "Error codes", row by row.
 */
type Code = ErrorCode;

/** Codes this file does not produce, and where they are covered instead (or why not at all). */
const NOT_PRODUCED_HERE: Partial<Record<Code, string>> = {
  IDEMPOTENCY_CONFLICT: 'idempotency.test.ts (concurrent requests)',
  PROCESSING_ERROR: 'only after 50 lost optimistic-lock rounds: not deterministic over HTTP',
  INTERNAL_ERROR: 'needs a server fault: server-fault.test.ts breaks the store under a running server',
  SERVICE_UNAVAILABLE: 'needs an unreachable database: the SQLite store cannot be made so from outside',
};

const produced = new Set<Code>();

type Expected = {
  /** Overrides the catalogue's status (RESOURCE_MISSING for the `token` parameter is a 400). */
  status?: number;
  /** The exact parameter; `undefined` given explicitly means it must be absent. */
  parameter?: string | undefined;
  decline_reason?: DeclineReason;
};

/**
 * The contract's `expectError` with the catalogue's status and type of `code`; an unnamed
 * parameter must still be a documented name, and only card declines carry a decline reason.
 */
function expectTableRow(response: ApiResponse, code: Code, expected: Expected = {}): ErrorBody {
  const { status, type } = ERROR_CODES[code];
  const parameter = 'parameter' in expected ? { parameter: expected.parameter } : {};
  const body = expectError(response, expected.status ?? status, code, { type, decline_reason: expected.decline_reason, ...parameter });
  if (!('parameter' in expected) && body.error.parameter !== undefined) expect(body.error.parameter).toMatch(/^[a-z_]+(\.[a-z_]+)*$/);
  produced.add(code);
  return body;
}

/** A client that always claims, through X-Forwarded-Proto, to have come in over HTTPS. */
function viaHttpsProxy(url: string, apiKey: string): Client {
  const api = client(url, apiKey);
  const https = { 'x-forwarded-proto': 'https' };
  return {
    get: (path, options) => api.get(path, { ...options, headers: { ...https, ...options?.headers } }),
    post: (path, params, options) => api.post(path, params, { ...options, headers: { ...https, ...options?.headers } }),
    request: (method, path, params, options = {}) => api.request(method, path, params, { ...options, headers: { ...https, ...options.headers } }),
  };
}

function without(params: Record<string, unknown>, path: string): Record<string, unknown> {
  const copy = structuredClone(params);
  const segments = path.split('.');
  const last = segments.pop() ?? '';
  let target = copy as Record<string, unknown>;
  for (const segment of segments) target = target[segment] as Record<string, unknown>;
  delete target[last];
  return copy;
}

/** A plain-HTTP server: test mode, no trusted proxy, no live acquirer. */
let plain: TestServer;
/** Trusts X-Forwarded-Proto from 127.0.0.1 but has no live acquirer. */
let proxiedNoAcquirer: TestServer;
/** Trusts X-Forwarded-Proto from 127.0.0.1 and runs live mode on the simulator. */
let proxiedLive: TestServer;
/** Publishable keys may create 3 tokens a minute. */
let limited: TestServer;

let keys: Keys;
let otherKeys: Keys;
let clockKeys: Keys;
let liveKeysPlain: Keys;
let liveKeysNoAcquirer: Keys;
let liveKeysLive: Keys;
let testKeysLive: Keys;
let limitedKeys: Keys;
let limitedOtherKeys: Keys;
let api: Client;

beforeAll(async () => {
  [plain, proxiedNoAcquirer, proxiedLive, limited] = await Promise.all([
    startServer(),
    startServer({ args: ['--trust-proxy', '127.0.0.1'] }),
    startServer({ args: ['--trust-proxy', '127.0.0.1', '--live-acquirer', 'simulator'] }),
    startServer({ env: { PAYFRAME_TOKEN_RATE_LIMIT: '3' } }),
  ]);
  [keys, otherKeys, clockKeys, liveKeysPlain, liveKeysNoAcquirer, liveKeysLive, testKeysLive, limitedKeys, limitedOtherKeys] = await Promise.all([
    createKeys(plain.dataDir, 'errors'),
    createKeys(plain.dataDir, 'errors-other'),
    createKeys(plain.dataDir, 'errors-clock'),
    createKeys(plain.dataDir, 'errors-live', 'live'),
    createKeys(proxiedNoAcquirer.dataDir, 'no-acquirer', 'live'),
    createKeys(proxiedLive.dataDir, 'live', 'live'),
    createKeys(proxiedLive.dataDir, 'live'),
    createKeys(limited.dataDir, 'limited'),
    createKeys(limited.dataDir, 'limited-other'),
  ]);
  api = client(plain.url, keys.secretKey);
});
afterAll(async () => {
  await Promise.all([plain, proxiedNoAcquirer, proxiedLive, limited].map((server) => server?.stop()));
});

async function newToken(pan: string = TEST_PANS.visa, using: Client = api): Promise<string> {
  return (await createToken(using, pan)).id;
}

describe('400 PARAMETER_MISSING', () => {
  it.each(['card.number', 'card.cvc', 'card.exp_month', 'card.exp_year', 'card.name', 'shopper.email', 'shopper.session_id'])(
    'names the missing token parameter %s with dots',
    async (parameter) => {
      expectTableRow(await api.post('/v2/tokens', without(tokenParams(TEST_PANS.visa), parameter)), 'PARAMETER_MISSING', { parameter });
    },
  );

  it.each(['token', 'amount', 'currency', 'description', 'return_url'])('names the missing charge parameter %s', async (parameter) => {
    expectTableRow(await api.post('/v2/charges', without(chargeParams('any-token'), parameter)), 'PARAMETER_MISSING', { parameter });
  });

  it('is the same in JSON', async () => {
    expectTableRow(await api.post('/v2/tokens', without(tokenParams(TEST_PANS.visa), 'shopper.email'), { encoding: 'json' }), 'PARAMETER_MISSING', {
      parameter: 'shopper.email',
    });
  });

  it('reports a whole missing object by its first required field, a parameter the client sends', async () => {
    const missingCard = await api.post('/v2/tokens', { shopper: { ip: '203.0.113.7', session_id: 's', email: 'a@example.com' } });
    expectTableRow(missingCard, 'PARAMETER_MISSING', { parameter: 'card.number' });
    expect(missingCard.body.message).toBe('Missing required parameter: card.number');
    expectTableRow(await api.post('/v2/tokens'), 'PARAMETER_MISSING', { parameter: 'card.number' });
    const { shopper: _shopper, ...cardOnly } = tokenParams(TEST_PANS.visa) as Record<string, unknown>;
    const missingShopper = await api.post('/v2/tokens', cardOnly);
    expect(missingShopper.body.error.parameter).toMatch(/^shopper\.[a-z_]+$/);
  });

  it('reports a POST without any body by the first missing parameter', async () => {
    expectTableRow(await api.post('/v2/test_helpers/clock'), 'PARAMETER_MISSING', { parameter: 'advance_seconds' });
  });
});

describe('400 PARAMETER_UNKNOWN', () => {
  it('refuses a POST body parameter sent in the URL, moving no money: a refund asked as ?amount=50 would refund it all', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '400' });
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
    expectTableRow(await api.post(`/v2/charges/refund/${charge.id}?amount=50`), 'PARAMETER_UNKNOWN', { parameter: 'amount' });
    expectTableRow(await api.post(`/v2/charges/refund/${charge.id}?amount=50`, { amount: '50' }), 'PARAMETER_UNKNOWN', { parameter: 'amount' });
    expectTableRow(await api.post(`/v2/charges/refund/${charge.id}?AMOUNT=50`), 'PARAMETER_UNKNOWN', { parameter: 'AMOUNT' });
    expectTableRow(await api.post(`/v2/tokens?card[number]=${TEST_PANS.visa}`, tokenParams(TEST_PANS.visa)), 'PARAMETER_UNKNOWN', { parameter: 'card' });
    expect((await api.get(`/v2/charges/${charge.id}`)).body.amount_refunded).toBe(0);
    // Any other name in the query is one the operation does not take: refused too.
    expectTableRow(await api.post(`/v2/charges/refund/${charge.id}?trace=abc`, { amount: '50' }), 'PARAMETER_UNKNOWN', { parameter: 'trace' });
    expect((await api.get(`/v2/charges/${charge.id}`)).body.amount_refunded).toBe(0);
  });

  it('refuses a misspelled name before doing anything: amout=100 never refunds everything', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '400' });
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
    for (const encoding of ['form', 'json', 'multipart'] as const) {
      expectTableRow(await api.post(`/v2/charges/refund/${charge.id}`, { amout: '100' }, { encoding }), 'PARAMETER_UNKNOWN', { parameter: 'amout' });
    }
    expect((await api.get(`/v2/charges/${charge.id}`)).body.amount_refunded).toBe(0);
  });

  it('names a nested unknown name with dots, and outranks a missing parameter', async () => {
    const params = tokenParams(TEST_PANS.visa);
    const card = params.card as Record<string, unknown>;
    card.numbr = card.number;
    delete card.number;
    expectTableRow(await api.post('/v2/tokens', params), 'PARAMETER_UNKNOWN', { parameter: 'card.numbr' });
    expectTableRow(await api.post('/v2/tokens', params, { encoding: 'json' }), 'PARAMETER_UNKNOWN', { parameter: 'card.numbr' });
  });

  it('refuses query parameters on operations that take none, and unknown list filters', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    expectTableRow(await api.get(`/v2/charges/${charge.id}?expand=token`), 'PARAMETER_UNKNOWN', { parameter: 'expand' });
    expectTableRow(await api.get('/v2/charges?colour=blue'), 'PARAMETER_UNKNOWN', { parameter: 'colour' });
    expectTableRow(await api.get('/v2/events?created[gt]=5'), 'PARAMETER_UNKNOWN', { parameter: 'created.gt' });
    expectTableRow(await api.post(`/v2/charges/cancel/${charge.id}`, { reason: 'fraud' }), 'PARAMETER_UNKNOWN', { parameter: 'reason' });
    expect((await api.get(`/v2/charges/${charge.id}`)).body.status).toBe('PENDING');
  });

  it('refuses names qs would have dropped, in a form, a query and JSON: none reaches the store', async () => {
    const form = (body: string) =>
      rawRequest(plain.url, '/v2/tokens', {
        method: 'POST',
        headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    const token = new URLSearchParams(bracketed(tokenParams(TEST_PANS.visa))).toString();
    for (const [extra, parameter] of [
      ['hasOwnProperty=1', 'hasOwnProperty'],
      ['toString=1', 'toString'],
      ['__proto__[x]=1', '__proto__.x'],
      ['card[__proto__][x]=1', 'card.__proto__.x'],
      ['constructor[prototype][x]=1', 'constructor'],
      ['=1', ''],
    ] as const) {
      expectTableRow(await form(`${token}&${extra}`), 'PARAMETER_UNKNOWN', { parameter });
    }
    expectTableRow(await api.get('/v2/charges?limit=1&hasOwnProperty=1'), 'PARAMETER_UNKNOWN', { parameter: 'hasOwnProperty' });
    expectTableRow(await api.get('/v2/refunds?__proto__[x]=1'), 'PARAMETER_UNKNOWN', { parameter: '__proto__.x' });
    const json = await rawRequest(plain.url, '/v2/tokens', {
      method: 'POST',
      headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/json' },
      body: JSON.stringify(tokenParams(TEST_PANS.visa)).replace('"card":{', '"card":{"__proto__":{"x":1},'),
    });
    expectTableRow(json, 'PARAMETER_UNKNOWN', { parameter: 'card.__proto__' });
    expect((await api.get('/v2/charges?limit=100')).status).toBe(200);
  });

  it('never repeats a card number sent as a parameter name, in the parameter or the message', async () => {
    const pan = TEST_PANS.visa;
    const answers = [
      await api.get(`/v2/charges?${pan}=1`),
      await api.get(`/v2/charges?${pan.replace(/(\d{4})(?=\d)/g, '$1%20')}=1`),
      await api.post('/v2/tokens', { ...tokenParams(TEST_PANS.visa), [`x${pan}`]: '1' }),
      await api.post('/v2/tokens', { ...tokenParams(TEST_PANS.visa), [pan]: '1' }, { encoding: 'json' }),
    ];
    const names = ['[redacted]', '[redacted]', 'x[redacted]', '[redacted]'];
    answers.forEach((answer, i) => {
      expectTableRow(answer, 'PARAMETER_UNKNOWN', { parameter: names[i] });
      expect(JSON.stringify(answer.body)).not.toMatch(/4242\D?4242\D?4242\D?4242/);
    });
  });

  it('takes a form metadata key of digits past the array limit as a key, as JSON does', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { metadata: { 123: 'v', 5000: 'w', order: 'x' } });
    expect(charge.metadata).toEqual({ 123: 'v', 5000: 'w', order: 'x' });
  });

  it('refuses parameters in the body of a GET, which a list would otherwise ignore', async () => {
    // fetch sends no body with a GET: over a raw connection.
    const connection = await RawConnection.open(plain.url);
    const body = 'limit=3';
    const headers = { 'X-Api-Key': keys.secretKey, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(body.length) };
    connection.write(`${rawHttpRequest('GET', '/v2/charges', headers).head}${body}`);
    const answer = await connection.response();
    connection.destroy();
    expectTableRow({ status: answer.status, body: JSON.parse(answer.body), headers: new Headers(answer.headers) }, 'PARAMETER_UNKNOWN', {
      parameter: undefined,
    });
  });

  it('refuses bytes that are no UTF-8, raw in a body or escaped in a query, as it refuses them escaped in a form', async () => {
    const name = Buffer.concat([
      Buffer.from('card[number]=4242424242424242&card[exp_month]=12&card[exp_year]=2030&card[cvc]=123&card[name]=J'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('o'),
    ]);
    for (const [contentType, body] of [
      ['application/x-www-form-urlencoded', name],
      [
        'application/json',
        Buffer.concat([
          Buffer.from('{"card":{"number":"4242424242424242","exp_month":12,"exp_year":2030,"cvc":"123","name":"J'),
          Buffer.from([0xff]),
          Buffer.from('o"}}'),
        ]),
      ],
    ] as const) {
      const response = await rawRequest(plain.url, '/v2/tokens', {
        method: 'POST',
        headers: { 'x-api-key': keys.secretKey, 'content-type': contentType },
        body,
      });
      expectTableRow(response, 'PARAMETER_INVALID');
    }
    expectTableRow(await api.get('/v2/charges?txn_reference=%FF'), 'PARAMETER_INVALID');
    expect((await api.get('/v2/charges?txn_reference=caf%C3%A9')).status).toBe(200);
  });

  it.each(['13', '0', 'ab', '1.5'])('refuses card.exp_month %s', async (month) => {
    const params = tokenParams(TEST_PANS.visa);
    (params.card as Record<string, unknown>).exp_month = month;
    expectTableRow(await api.post('/v2/tokens', params), 'PARAMETER_INVALID', { parameter: 'card.exp_month' });
  });

  it('refuses card.exp_month 13 sent as a JSON number', async () => {
    const params = tokenParams(TEST_PANS.visa);
    (params.card as Record<string, unknown>).exp_month = 13;
    expectTableRow(await api.post('/v2/tokens', params, { encoding: 'json' }), 'PARAMETER_INVALID', { parameter: 'card.exp_month' });
  });

  it('refuses a two-digit card.exp_year and a bad e-mail', async () => {
    const params = tokenParams(TEST_PANS.visa);
    (params.card as Record<string, unknown>).exp_year = '30';
    expectTableRow(await api.post('/v2/tokens', params), 'PARAMETER_INVALID', { parameter: 'card.exp_year' });
    const email = tokenParams(TEST_PANS.visa, { shopper: { ip: '203.0.113.7', session_id: 's', email: 'not-an-email' } });
    expectTableRow(await api.post('/v2/tokens', email), 'PARAMETER_INVALID', { parameter: 'shopper.email' });
  });

  describe('amount must be plain positive digits', () => {
    let token: string;
    beforeAll(async () => {
      token = await newToken();
    });

    it.each(['5.5', '0', '-1', '1e3', '', ' 500', '0x10', 'abc'])('refuses amount %j from a form', async (amount) => {
      expectTableRow(await api.post('/v2/charges', chargeParams(token, { amount })), 'PARAMETER_INVALID', { parameter: 'amount' });
    });

    it.each([5.5, 0, -1, '1e3'])('refuses amount %j from JSON', async (amount) => {
      expectTableRow(await api.post('/v2/charges', chargeParams(token, { amount }), { encoding: 'json' }), 'PARAMETER_INVALID', { parameter: 'amount' });
    });

    it('left the token unused: it still charges', async () => {
      expect((await api.post('/v2/charges', chargeParams(token))).status).toBe(200);
    });
  });

  it.each(['XYZ', 'EU', 'euro', '123'])('refuses currency %j', async (currency) => {
    expectTableRow(await api.post('/v2/charges', chargeParams('any-token', { currency })), 'PARAMETER_INVALID', { parameter: 'currency' });
  });

  it.each(['not a url', '/relative/path', 'https://', 'javascript:alert(1)', 'ftp://shop.example/return', 'https://user:pass@shop.example/'])(
    'refuses return_url %j',
    async (returnUrl) => {
      expectTableRow(await api.post('/v2/charges', chargeParams('any-token', { return_url: returnUrl })), 'PARAMETER_INVALID', {
        parameter: 'return_url',
      });
    },
  );

  it('refuses malformed JSON', async () => {
    const response = await rawRequest(plain.url, '/v2/charges', {
      method: 'POST',
      headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/json' },
      body: '{"token": "abc", "amount": ',
    });
    expectTableRow(response, 'PARAMETER_INVALID');
  });

  it('refuses an Idempotency-Key longer than 255 characters', async () => {
    const token = await newToken();
    const response = await api.post('/v2/charges', chargeParams(token), { headers: { 'idempotency-key': 'k'.repeat(256) } });
    // A header, not a body parameter: named as the header is.
    expectTableRow(response, 'PARAMETER_INVALID', { parameter: 'Idempotency-Key' });
    // A key of exactly 255 characters is accepted.
    expect((await api.post('/v2/charges', chargeParams(token), { headers: { 'idempotency-key': 'k'.repeat(255) } })).status).toBe(200);
  });

  it('refuses a partial refund of an uncaptured charge (released whole only)', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    expectTableRow(await api.post(`/v2/charges/refund/${charge.id}`, { amount: '100' }), 'PARAMETER_INVALID', { parameter: 'amount' });
  });

  it('refuses a clock advance that is not a positive integer', async () => {
    for (const seconds of ['0', '-5', '1.5', '315360001']) {
      expectTableRow(await api.post('/v2/test_helpers/clock', { advance_seconds: seconds }), 'PARAMETER_INVALID', { parameter: 'advance_seconds' });
    }
  });
});

describe('integers as written: a fraction or exponent is refused in JSON as in a form', () => {
  /** Where the test writes its number into the JSON text, as a client's own serializer may write it. */
  const HERE = '@number';
  /** An account of its own: its clock is advanced here. */
  let clockKey: string;
  beforeAll(async () => {
    clockKey = (await createKeys(plain.dataDir, 'errors-written-clock')).secretKey;
  });

  /** A JSON body with the number at HERE exactly as written (JSON.stringify would turn 1e3 into 1000). */
  function postWritten(path: string, params: Record<string, unknown>, written: string, apiKey = keys.secretKey): Promise<ApiResponse> {
    const body = JSON.stringify(params).replace(`"${HERE}"`, written);
    return rawRequest(plain.url, path, { method: 'POST', headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, body });
  }

  /** A 400 PARAMETER_INVALID naming the parameter, whose message neither repeats the value nor speaks zod. */
  function expectRefused(response: ApiResponse, parameter: string, written: string): void {
    const { message } = expectTableRow(response, 'PARAMETER_INVALID', { parameter });
    expect(message).toMatch(new RegExp(`^Invalid parameter ${parameter.replace('.', '\\.')}: must `));
    expect(message).not.toContain(written);
    expect(message).not.toMatch(/Invalid string|pattern|\/\^/);
  }

  const cardWith = (field: string, value: string) => tokenParams(TEST_PANS.visa, { card: { ...(tokenParams(TEST_PANS.visa).card as object), [field]: value } });

  it.each(['1e3', '1E3', '1.0', '1000.0', '5e+2', '-1.5'])('charge amount %s', async (written) => {
    const token = await newToken();
    expectRefused(await postWritten('/v2/charges', chargeParams(token, { amount: HERE }), written), 'amount', written);
    expectRefused(await api.post('/v2/charges', chargeParams(token, { amount: written })), 'amount', written);
    expectRefused(await api.post('/v2/charges', chargeParams(token, { amount: written }), { encoding: 'multipart' }), 'amount', written);
  });

  it('a charge amount of plain digits is taken as a JSON number and as a string', async () => {
    const asNumber = await postWritten('/v2/charges', chargeParams(await newToken(), { amount: HERE }), '1000');
    expect(asNumber.status, JSON.stringify(asNumber.body)).toBe(200);
    expect(asNumber.body.amount).toBe(1000);
    const asString = await postWritten('/v2/charges', chargeParams(await newToken(), { amount: HERE }), '"1000"');
    expect(asString.status, JSON.stringify(asString.body)).toBe(200);
    expect(asString.body.amount).toBe(1000);
  });

  it('refund amounts 1e2 and 50.0 are refused; 100 as a JSON number and as a string are refunded', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { amount: '500' });
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
    const path = `/v2/charges/refund/${charge.id}`;
    for (const written of ['1e2', '50.0']) {
      expectRefused(await postWritten(path, { amount: HERE }, written), 'amount', written);
      expectRefused(await api.post(path, { amount: written }), 'amount', written);
    }
    for (const written of ['100', '"100"']) {
      const refund = await postWritten(path, { amount: HERE }, written);
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
      expect(refund.body.amount).toBe(100);
    }
  });

  it('advance_seconds 1e1 and 10.0 are refused; 10 as a JSON number advances the clock', async () => {
    for (const written of ['1e1', '10.0']) {
      expectRefused(await postWritten('/v2/test_helpers/clock', { advance_seconds: HERE }, written, clockKey), 'advance_seconds', written);
      expectRefused(await client(plain.url, clockKey).post('/v2/test_helpers/clock', { advance_seconds: written }), 'advance_seconds', written);
    }
    const before = (await client(plain.url, clockKey).get('/v2/test_helpers/clock')).body.offset;
    const advanced = await postWritten('/v2/test_helpers/clock', { advance_seconds: HERE }, '10', clockKey);
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
    expect(advanced.body.offset).toBe(before + 10);
  });

  it.each([
    ['exp_month', '7.0'],
    ['exp_month', '7e0'],
    ['exp_year', '2.03e3'],
    ['exp_year', `${new Date().getUTCFullYear() + 3}.0`],
  ])('card %s %s', async (field, written) => {
    expectRefused(await postWritten('/v2/tokens', cardWith(field, HERE), written), `card.${field}`, written);
    expectRefused(await api.post('/v2/tokens', cardWith(field, written)), `card.${field}`, written);
  });

  it('card exp_month and exp_year as JSON numbers of plain digits make a token', async () => {
    const params = tokenParams(TEST_PANS.visa, {
      card: { ...(tokenParams(TEST_PANS.visa).card as object), exp_month: 7, exp_year: new Date().getUTCFullYear() + 3 },
    });
    expect((await api.post('/v2/tokens', params, { encoding: 'json' })).status).toBe(200);
  });

  it('a fraction inside a string is the string’s own: a description keeps it', async () => {
    const charge = await postWritten('/v2/charges', chargeParams(await newToken(), { description: 'Total: 1.5e3, [2.0]', amount: HERE }), '700');
    expect(charge.status, JSON.stringify(charge.body)).toBe(200);
    expect(charge.body).toMatchObject({ amount: 700, description: 'Total: 1.5e3, [2.0]' });
  });

  it.each(['[]', '"amount"', '12.5'])('a JSON body %s that is no object is refused in plain words', async (body) => {
    const response = await rawRequest(plain.url, '/v2/test_helpers/clock', {
      method: 'POST',
      headers: { 'x-api-key': clockKey, 'content-type': 'application/json' },
      body,
    });
    expect(expectTableRow(response, 'PARAMETER_INVALID', { parameter: 'body' }).message).toBe('The request body must be an object of named parameters.');
  });
});

describe('RESOURCE_MISSING', () => {
  it('is a 400 for an unknown token parameter on POST /v2/charges', async () => {
    expectTableRow(await api.post('/v2/charges', chargeParams('7f0c1d62-5f0b-4b8e-9a55-000000000000')), 'RESOURCE_MISSING', {
      status: 400,
      parameter: 'token',
    });
  });

  it('is a 404 for unknown token, charge and refund ids', async () => {
    expectTableRow(await api.get('/v2/tokens/7f0c1d62-5f0b-4b8e-9a55-000000000000'), 'RESOURCE_MISSING');
    expectTableRow(await api.get('/v2/charges/C0000000000000000000'), 'RESOURCE_MISSING');
    expectTableRow(await api.get('/v2/charges/refund/7f0c1d62-5f0b-4b8e-9a55-000000000000'), 'RESOURCE_MISSING');
    expectTableRow(await api.post('/v2/charges/capture/C0000000000000000000'), 'RESOURCE_MISSING');
    expectTableRow(await api.post('/v2/charges/cancel/C0000000000000000000'), 'RESOURCE_MISSING');
    expectTableRow(await api.post('/v2/charges/refund/C0000000000000000000'), 'RESOURCE_MISSING');
    expectTableRow(await api.post('/v2/test_helpers/charges/C0000000000000000000/authenticate', { result: 'success' }), 'RESOURCE_MISSING');
  });

  it("answers another account's objects exactly as unknown ones", async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    const refund = await api.post(`/v2/charges/refund/${charge.id}`);
    expect(refund.status).toBe(200);
    const other = client(plain.url, otherKeys.secretKey);
    const unknownCharge = await other.get('/v2/charges/C0000000000000000000');
    for (const response of [
      await other.get(`/v2/charges/${charge.id}`),
      await other.get(`/v2/tokens/${charge.token.id}`),
      await other.get(`/v2/charges/refund/${refund.body.id}`),
      await other.post(`/v2/charges/capture/${charge.id}`),
    ]) {
      expectTableRow(response, 'RESOURCE_MISSING');
    }
    expect((await other.get(`/v2/charges/${charge.id}`)).body).toEqual(unknownCharge.body);
    const usedToken = await other.post('/v2/charges', chargeParams(charge.token.id));
    expectTableRow(usedToken, 'RESOURCE_MISSING', { status: 400, parameter: 'token' });
  });
});

describe('400 IDEMPOTENCY_KEY_REUSED', () => {
  it('answers a key reused with different parameters with an idempotency_error', async () => {
    const token = await newToken();
    const key = `errors-reuse-${Date.now()}`;
    expect((await api.post('/v2/charges', chargeParams(token), { headers: { 'idempotency-key': key } })).status).toBe(200);
    expectTableRow(await api.post('/v2/charges', chargeParams(token, { amount: '501' }), { headers: { 'idempotency-key': key } }), 'IDEMPOTENCY_KEY_REUSED');
  });
});

describe('401 INVALID_API_KEY', () => {
  it('answers a request without a key', async () => {
    expectTableRow(await client(plain.url).get('/v2/charges/C0000000000000000000'), 'INVALID_API_KEY');
    expectTableRow(await client(plain.url).post('/v2/tokens', tokenParams(TEST_PANS.visa)), 'INVALID_API_KEY');
  });

  it('answers an unknown well-formed key of each kind', async () => {
    for (const key of [`sk_test_${'A'.repeat(32)}`, `pk_test_${'B'.repeat(32)}`, `sk_live_${'C'.repeat(32)}`]) {
      expectTableRow(await client(plain.url, key).post('/v2/tokens', tokenParams(TEST_PANS.visa)), 'INVALID_API_KEY');
    }
  });

  it('answers malformed keys', async () => {
    for (const key of ['garbage', 'sk_test_', 'Bearer sk_test_x', keys.secretKey.slice(0, -1), keys.secretKey.toUpperCase()]) {
      expectTableRow(await client(plain.url, key).get('/v2/test_helpers/clock'), 'INVALID_API_KEY');
    }
  });

  it('answers keys revoked with the CLI in another process, within a second', async () => {
    const revoked = await createKeys(plain.dataDir, 'errors-revoked');
    const secret = client(plain.url, revoked.secretKey);
    const publishable = client(plain.url, revoked.publishableKey);
    expect((await secret.get('/v2/test_helpers/clock')).status).toBe(200);
    expect((await publishable.post('/v2/tokens', tokenParams(TEST_PANS.visa))).status).toBe(200);

    for (const key of [revoked.secretKey, revoked.publishableKey]) {
      const result = await cli(['keys', 'revoke', key, ...(await storeArgs(plain.dataDir))]);
      expect(result.code, result.stderr).toBe(0);
    }
    const refused = (response: ApiResponse) => response.status === 401;
    expectTableRow(await withinPropagation(() => secret.get('/v2/test_helpers/clock'), refused), 'INVALID_API_KEY');
    expectTableRow(await publishable.post('/v2/tokens', tokenParams(TEST_PANS.visa)), 'INVALID_API_KEY');
    // Revoking one account's keys leaves the others working.
    expect((await api.get('/v2/test_helpers/clock')).status).toBe(200);
  });
});

describe('402 card errors at charge time', () => {
  it.each([
    [TEST_PANS.declined, 'GENERIC_DECLINE'],
    [TEST_PANS.insufficientFunds, 'INSUFFICIENT_FUNDS'],
  ] as const)('declines %s with DECLINED and decline_reason %s', async (pan, reason) => {
    const token = await newToken(pan);
    expectTableRow(await api.post('/v2/charges', chargeParams(token)), 'DECLINED', { decline_reason: reason });
  });

  it('answers EXPIRED_CARD for the expired test card', async () => {
    const token = await newToken(TEST_PANS.expired);
    expectTableRow(await api.post('/v2/charges', chargeParams(token)), 'EXPIRED_CARD');
  });

  it('answers INCORRECT_CVC for the wrong-CVC test card', async () => {
    const token = await newToken(TEST_PANS.incorrectCvc);
    expectTableRow(await api.post('/v2/charges', chargeParams(token)), 'INCORRECT_CVC');
  });
});

describe('402 card errors at token creation', () => {
  it.each(['4242424242424241', '4000000000000001', '1234567890123'])('answers INCORRECT_NUMBER for the Luhn-invalid %s', async (pan) => {
    expectTableRow(await api.post('/v2/tokens', tokenParams(pan)), 'INCORRECT_NUMBER', { parameter: 'card.number' });
  });

  it.each([
    ['4007000000027', 'VISA', 'a 13-digit Visa'],
    ['42424242424242426', 'VISA', 'a Visa prefix with 17 digits'],
    ['555555555555442', 'MASTERCARD', 'a Mastercard prefix with 15 digits'],
  ])('approves the Luhn-valid %s (%s, %s) whatever its brand’s usual lengths', async (pan, brand) => {
    const token = await api.post('/v2/tokens', tokenParams(pan));
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body.card).toMatchObject({ brand, fundingType: 'CREDIT', authorization: 'NOT_AVAILABLE', country: 'UNKNOWN', bank: 'UNKNOWN' });
    const charge = await api.post('/v2/charges', chargeParams(token.body.id));
    expect(charge.status, JSON.stringify(charge.body)).toBe(200);
  });

  it('answers INCORRECT_NUMBER to a publishable key too', async () => {
    expectTableRow(await client(plain.url, keys.publishableKey).post('/v2/tokens', tokenParams('4242424242424241')), 'INCORRECT_NUMBER', {
      parameter: 'card.number',
    });
  });

  it('answers EXPIRED_CARD for an expiry in the past', async () => {
    const params = tokenParams(TEST_PANS.visa);
    (params.card as Record<string, unknown>).exp_year = String(new Date().getUTCFullYear() - 1);
    expectTableRow(await api.post('/v2/tokens', params), 'EXPIRED_CARD');
  });
});

describe('402 TOKEN_ALREADY_USED', () => {
  it('answers a second charge of an approved token', async () => {
    const token = await newToken();
    expect((await api.post('/v2/charges', chargeParams(token))).status).toBe(200);
    expectTableRow(await api.post('/v2/charges', chargeParams(token)), 'TOKEN_ALREADY_USED');
  });

  it('answers a second charge of a declined token (the decline consumed it)', async () => {
    const token = await newToken(TEST_PANS.declined);
    expectTableRow(await api.post('/v2/charges', chargeParams(token)), 'DECLINED', { decline_reason: 'GENERIC_DECLINE' });
    expectTableRow(await api.post('/v2/charges', chargeParams(token)), 'TOKEN_ALREADY_USED');
  });
});

describe('402 charge lifecycle errors', () => {
  it('CHARGE_ALREADY_CAPTURED: capture twice, cancel after capture', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
    expectTableRow(await api.post(`/v2/charges/capture/${charge.id}`), 'CHARGE_ALREADY_CAPTURED');
    expectTableRow(await api.post(`/v2/charges/cancel/${charge.id}`), 'CHARGE_ALREADY_CAPTURED');
  });

  it('CHARGE_ALREADY_REFUNDED: refund or capture a fully refunded charge', async () => {
    const captured = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/capture/${captured.id}`)).status).toBe(200);
    expect((await api.post(`/v2/charges/refund/${captured.id}`)).status).toBe(200);
    expectTableRow(await api.post(`/v2/charges/refund/${captured.id}`), 'CHARGE_ALREADY_REFUNDED');
    expectTableRow(await api.post(`/v2/charges/capture/${captured.id}`), 'CHARGE_ALREADY_REFUNDED');

    const released = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/refund/${released.id}`)).status).toBe(200);
    expectTableRow(await api.post(`/v2/charges/capture/${released.id}`), 'CHARGE_ALREADY_REFUNDED');
    expectTableRow(await api.post(`/v2/charges/refund/${released.id}`), 'CHARGE_ALREADY_REFUNDED');
  });

  it('CHARGE_EXPIRED: capture, refund or cancel seven days after creation', async () => {
    const clockApi = client(plain.url, clockKeys.secretKey);
    const charge = await createCharge(clockApi, TEST_PANS.visa);
    const advanced = await clockApi.post('/v2/test_helpers/clock', { advance_seconds: '604800' });
    expect(advanced.body).toMatchObject({ type: 'test_clock', offset: 604800 });
    expect((await clockApi.get(`/v2/charges/${charge.id}`)).body).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED' });
    expectTableRow(await clockApi.post(`/v2/charges/capture/${charge.id}`), 'CHARGE_EXPIRED');
    expectTableRow(await clockApi.post(`/v2/charges/refund/${charge.id}`), 'CHARGE_EXPIRED');
    expectTableRow(await clockApi.post(`/v2/charges/cancel/${charge.id}`), 'CHARGE_EXPIRED');
  });

  it('CHARGE_CANCELED: capture, refund or cancel a canceled charge', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    const canceled = await api.post(`/v2/charges/cancel/${charge.id}`);
    expect(canceled.body).toMatchObject({ status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API' });
    expectTableRow(await api.post(`/v2/charges/capture/${charge.id}`), 'CHARGE_CANCELED');
    expectTableRow(await api.post(`/v2/charges/refund/${charge.id}`), 'CHARGE_CANCELED');
    expectTableRow(await api.post(`/v2/charges/cancel/${charge.id}`), 'CHARGE_CANCELED');
  });

  it('AUTHENTICATION_REQUIRED: capture while 3-D Secure is pending', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    expect(charge.threedSecure.status).toBe('PENDING');
    expectTableRow(await api.post(`/v2/charges/capture/${charge.id}`), 'AUTHENTICATION_REQUIRED');
  });

  it('AUTHENTICATION_FAILED: capture after the shopper failed 3-D Secure', async () => {
    const charge = await createCharge(api, TEST_PANS.mastercard3ds);
    const failed = await api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'failure' });
    expect(failed.body).toMatchObject({ id: charge.id, threedSecure: { status: 'FAILED' } });
    expectTableRow(await api.post(`/v2/charges/capture/${charge.id}`), 'AUTHENTICATION_FAILED');
  });

  it('AUTHENTICATION_NOT_PENDING: authenticate twice, or a charge that needs none', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    expect((await api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'success' })).status).toBe(200);
    expectTableRow(await api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'failure' }), 'AUTHENTICATION_NOT_PENDING');
    const frictionless = await createCharge(api, TEST_PANS.visa);
    expectTableRow(await api.post(`/v2/test_helpers/charges/${frictionless.id}/authenticate`, { result: 'success' }), 'AUTHENTICATION_NOT_PENDING');
  });

  it('AMOUNT_EXCEEDS_REMAINING: refund more than the charge, or than what remains', async () => {
    const pending = await createCharge(api, TEST_PANS.visa);
    expectTableRow(await api.post(`/v2/charges/refund/${pending.id}`, { amount: '501' }), 'AMOUNT_EXCEEDS_REMAINING');

    const captured = await createCharge(api, TEST_PANS.visa);
    expect((await api.post(`/v2/charges/capture/${captured.id}`)).status).toBe(200);
    expect((await api.post(`/v2/charges/refund/${captured.id}`, { amount: '300' })).status).toBe(200);
    expectTableRow(await api.post(`/v2/charges/refund/${captured.id}`, { amount: '201' }), 'AMOUNT_EXCEEDS_REMAINING');
    expect((await api.post(`/v2/charges/refund/${captured.id}`, { amount: '200' })).body).toMatchObject({ amount: 200 });
  });
});

describe('403 PUBLISHABLE_KEY_NOT_ALLOWED', () => {
  it('refuses a publishable key anywhere but POST /v2/tokens', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    const publishable = client(plain.url, keys.publishableKey);
    for (const response of [
      await publishable.post('/v2/charges', chargeParams(charge.token.id)),
      await publishable.get(`/v2/charges/${charge.id}`),
      await publishable.get(`/v2/tokens/${charge.token.id}`),
      await publishable.post(`/v2/charges/capture/${charge.id}`),
      await publishable.post(`/v2/charges/cancel/${charge.id}`),
      await publishable.post(`/v2/charges/refund/${charge.id}`),
      await publishable.get('/v2/test_helpers/clock'),
      await publishable.post('/v2/test_helpers/clock', { advance_seconds: '1' }),
      // Before the route and the method are judged (check order): another method on the token path, or no route at all.
      await publishable.get('/v2/tokens'),
      await publishable.request('DELETE', '/v2/tokens'),
      await publishable.get('/v2/no_such_route'),
      await publishable.post('/v2/no_such_route', {}),
    ]) {
      expectTableRow(response, 'PUBLISHABLE_KEY_NOT_ALLOWED');
    }
    // Nothing moved.
    expect((await api.get(`/v2/charges/${charge.id}`)).body.status).toBe('PENDING');
    expect((await api.get('/v2/test_helpers/clock')).body.offset).toBe(0);
  });
});

describe('403 HTTPS_REQUIRED', () => {
  it('refuses live keys over plain HTTP', async () => {
    expectTableRow(await client(plain.url, liveKeysPlain.secretKey).get('/v2/charges/C0000000000000000000'), 'HTTPS_REQUIRED');
    expectTableRow(await client(plain.url, liveKeysPlain.secretKey).post('/v2/tokens', tokenParams('4012888888881881')), 'HTTPS_REQUIRED');
    expectTableRow(await client(plain.url, liveKeysPlain.publishableKey).post('/v2/tokens', tokenParams('4012888888881881')), 'HTTPS_REQUIRED');
  });

  it('ignores X-Forwarded-Proto from a proxy that was not declared trusted', async () => {
    expectTableRow(await viaHttpsProxy(plain.url, liveKeysPlain.secretKey).post('/v2/tokens', tokenParams('4012888888881881')), 'HTTPS_REQUIRED');
    expectTableRow(await viaHttpsProxy(plain.url, liveKeysPlain.publishableKey).post('/v2/tokens', tokenParams('4012888888881881')), 'HTTPS_REQUIRED');
  });

  it('still refuses live keys behind a trusted proxy when the proxy did not see HTTPS', async () => {
    const live = client(proxiedLive.url, liveKeysLive.secretKey);
    expectTableRow(await live.post('/v2/tokens', tokenParams('4012888888881881')), 'HTTPS_REQUIRED');
    expectTableRow(await live.post('/v2/tokens', tokenParams('4012888888881881'), { headers: { 'x-forwarded-proto': 'http' } }), 'HTTPS_REQUIRED');
  });

  it("takes a trusted proxy's X-Forwarded-Proto in any case: a scheme is case-insensitive", async () => {
    const live = client(proxiedLive.url, liveKeysLive.secretKey);
    for (const proto of ['HTTPS', 'Https']) {
      expect((await live.post('/v2/tokens', tokenParams('4012888888881881'), { headers: { 'x-forwarded-proto': proto } })).status, proto).toBe(200);
    }
  });

  it('accepts test keys over plain HTTP on the same servers', async () => {
    expect((await client(proxiedLive.url, testKeysLive.secretKey).post('/v2/tokens', tokenParams(TEST_PANS.visa))).status).toBe(200);
  });
});

describe('403 LIVE_MODE_NOT_ALLOWED', () => {
  it('refuses live money movement on a server without a live acquirer, before reading the body', async () => {
    const live = viaHttpsProxy(proxiedNoAcquirer.url, liveKeysNoAcquirer.secretKey);
    // Tokens move no money: they are created in live mode.
    const token = await live.post('/v2/tokens', tokenParams('4012888888881881'));
    expect(token.body).toMatchObject({ type: 'token', mode: 'live' });
    expectTableRow(await live.post('/v2/charges', chargeParams(token.body.id)), 'LIVE_MODE_NOT_ALLOWED');
    expectTableRow(await live.post('/v2/charges'), 'LIVE_MODE_NOT_ALLOWED');
    expectTableRow(await live.post('/v2/charges/capture/C0000000000000000000'), 'LIVE_MODE_NOT_ALLOWED');
    expectTableRow(await live.post('/v2/charges/cancel/C0000000000000000000'), 'LIVE_MODE_NOT_ALLOWED');
    expectTableRow(await live.post('/v2/charges/refund/C0000000000000000000'), 'LIVE_MODE_NOT_ALLOWED');
    // The token was not spent by the refused charge.
    expect((await live.get(`/v2/tokens/${token.body.id}`)).status).toBe(200);
  });

  it('refuses live keys on the test helpers, even where live mode is enabled', async () => {
    for (const server of [proxiedLive, proxiedNoAcquirer]) {
      const liveKeys = server === proxiedLive ? liveKeysLive : liveKeysNoAcquirer;
      const live = viaHttpsProxy(server.url, liveKeys.secretKey);
      expectTableRow(await live.get('/v2/test_helpers/clock'), 'LIVE_MODE_NOT_ALLOWED');
      expectTableRow(await live.post('/v2/test_helpers/clock', { advance_seconds: '604800' }), 'LIVE_MODE_NOT_ALLOWED');
      expectTableRow(await live.post('/v2/test_helpers/charges/C0000000000000000000/authenticate', { result: 'success' }), 'LIVE_MODE_NOT_ALLOWED');
      expectTableRow(await live.post('/v2/test_helpers/charges/C0000000000000000000/expire'), 'LIVE_MODE_NOT_ALLOWED');
      expectTableRow(await live.post('/v2/test_helpers/tokens/00000000-0000-4000-8000-000000000000/expire'), 'LIVE_MODE_NOT_ALLOWED');
    }
  });
});

describe('live mode on the simulator, over HTTPS through a trusted proxy', () => {
  let live: Client;
  beforeAll(() => {
    live = viaHttpsProxy(proxiedLive.url, liveKeysLive.secretKey);
  });

  it('declines a test card with DECLINED / TEST_CARD_IN_LIVE_MODE', async () => {
    const token = await newToken(TEST_PANS.visa, live);
    expectTableRow(await live.post('/v2/charges', chargeParams(token)), 'DECLINED', { decline_reason: 'TEST_CARD_IN_LIVE_MODE' });
  });

  it('approves a Luhn-valid card that is not a test card', async () => {
    const token = await newToken('4012888888881881', live);
    const charge = await live.post('/v2/charges', chargeParams(token));
    expect(charge.status, JSON.stringify(charge.body)).toBe(200);
    expect(charge.body).toMatchObject({ type: 'charge', mode: 'live', status: 'PENDING', token: { card: { brand: 'VISA', last4Digits: '1881' } } });
  });

  it('creates live tokens with the live publishable key', async () => {
    const token = await viaHttpsProxy(proxiedLive.url, liveKeysLive.publishableKey).post('/v2/tokens', tokenParams('4012888888881881'));
    expect(token.body).toMatchObject({ type: 'token', mode: 'live' });
  });

  it('requires an https return_url', async () => {
    const token = await newToken('4012888888881881', live);
    expectTableRow(await live.post('/v2/charges', chargeParams(token, { return_url: 'http://shop.example/return' })), 'PARAMETER_INVALID', {
      parameter: 'return_url',
    });
    // The refusal spent nothing: the token still charges.
    expect((await live.post('/v2/charges', chargeParams(token))).status).toBe(200);
  });

  it('keeps modes apart: a live key does not see test objects', async () => {
    const testCharge = await createCharge(client(proxiedLive.url, testKeysLive.secretKey), TEST_PANS.visa);
    expectTableRow(await live.get(`/v2/charges/${testCharge.id}`), 'RESOURCE_MISSING');
  });
});

describe('404 / 405', () => {
  it('ROUTE_NOT_FOUND for an unknown /v2 route', async () => {
    expectTableRow(await api.get('/v2/customers'), 'ROUTE_NOT_FOUND');
    expectTableRow(await api.post('/v2/charges/C0000000000000000000/refunds', {}), 'ROUTE_NOT_FOUND');
    expectTableRow(await api.get('/v2'), 'ROUTE_NOT_FOUND');
  });

  it('METHOD_NOT_ALLOWED for a known route with another method', async () => {
    expectTableRow(await api.request('PUT', '/v2/charges'), 'METHOD_NOT_ALLOWED');
    expectTableRow(await api.request('DELETE', '/v2/charges/C0000000000000000000'), 'METHOD_NOT_ALLOWED');
    expectTableRow(await api.request('PUT', '/v2/tokens', tokenParams(TEST_PANS.visa)), 'METHOD_NOT_ALLOWED');
    expectTableRow(await api.get('/v2/charges/capture/C0000000000000000000'), 'METHOD_NOT_ALLOWED');
    expectTableRow(await api.request('PATCH', '/v2/charges/refund/C0000000000000000000'), 'METHOD_NOT_ALLOWED');
    // fetch refuses to send TRACE: over a raw connection.
    const connection = await RawConnection.open(plain.url);
    connection.write(rawHttpRequest('TRACE', '/v2/charges', { 'X-Api-Key': keys.secretKey }).head);
    const trace = await connection.response();
    connection.destroy();
    expectTableRow({ status: trace.status, body: JSON.parse(trace.body), headers: new Headers(trace.headers) }, 'METHOD_NOT_ALLOWED');
    expect(trace.headers.allow).toBe('GET, POST, HEAD');
  });

  it('answers a method Fastify does not route (PROPFIND, QUERY, M-SEARCH) as TRACE: key, realm, then 405 or 404', async () => {
    const answer = async (method: string, path: string, key?: string) => {
      const connection = await RawConnection.open(plain.url);
      connection.write(rawHttpRequest(method, path, key ? { 'X-Api-Key': key } : {}).head);
      const response = await connection.response();
      connection.destroy();
      return { status: response.status, body: JSON.parse(response.body), headers: new Headers(response.headers) };
    };
    for (const method of ['PROPFIND', 'QUERY', 'M-SEARCH']) {
      const refused = await answer(method, '/v2/charges', keys.secretKey);
      expectTableRow(refused, 'METHOD_NOT_ALLOWED');
      expect([refused.headers.get('allow'), refused.body.error.message]).toEqual(['GET, POST, HEAD', `${method} is not allowed on this URL.`]);
      expect((await answer(method, '/v2/charges/capture/C0000000000000000000', keys.secretKey)).headers.get('allow')).toBe('POST');
      expectTableRow(await answer(method, '/v2/customers', keys.secretKey), 'ROUTE_NOT_FOUND');
      expect((await answer(method, '/v2/charges')).status).toBe(401);
      expectTableRow(await answer(method, '/v2/charges', keys.publishableKey), 'PUBLISHABLE_KEY_NOT_ALLOWED');
    }
  });

  it('says in Allow what the URL serves, HEAD included where GET is, and refuses HEAD where it is not', async () => {
    expect((await api.request('PUT', '/v2/charges')).headers.get('allow')).toBe('GET, POST, HEAD');
    expect((await api.get('/v2/charges/capture/C0000000000000000000')).headers.get('allow')).toBe('POST');
    // A HEAD answer has no body: the status and Allow say it.
    const head = await fetch(`${plain.url}/v2/tokens`, { method: 'HEAD', headers: { 'x-api-key': keys.secretKey } });
    expect([head.status, head.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await fetch(`${plain.url}/v2/charges`, { method: 'HEAD', headers: { 'x-api-key': keys.secretKey } })).status).toBe(200);
  });
});

describe('415 for a compressed body', () => {
  it('refuses a Content-Encoding other than identity, rather than parsing the compressed bytes', async () => {
    const json = JSON.stringify({ advance_seconds: '1' });
    for (const [encoding, body] of [
      ['gzip', gzipSync(json)],
      ['deflate, br', Buffer.from(json)],
    ] as const) {
      const response = await rawRequest(plain.url, '/v2/test_helpers/clock', {
        method: 'POST',
        headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/json', 'content-encoding': encoding },
        body,
      });
      expectTableRow(response, 'UNSUPPORTED_MEDIA_TYPE');
      expect(response.body.error.message).toContain('Content-Encoding');
    }
    expect((await api.get('/v2/test_helpers/clock')).body.offset).toBe(0);
  });
});

describe('413 BODY_TOO_LARGE', () => {
  const big = 'a'.repeat(1024 * 1024 + 1024);

  it('refuses a urlencoded body over 1 MB', async () => {
    const response = await rawRequest(plain.url, '/v2/tokens', {
      method: 'POST',
      headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/x-www-form-urlencoded' },
      body: `card[name]=${big}`,
    });
    expectTableRow(response, 'BODY_TOO_LARGE');
  });

  it('refuses a JSON body over 1 MB', async () => {
    const response = await rawRequest(plain.url, '/v2/charges', {
      method: 'POST',
      headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/json' },
      body: JSON.stringify({ description: big }),
    });
    expectTableRow(response, 'BODY_TOO_LARGE');
  });

  it.each([
    ['one field over 1 MB', [['card[name]', big]]],
    ['small fields adding up to over 1 MB', Array.from({ length: 11 }, (_, index) => [`address[f${index}]`, big.slice(0, 100_000)])],
  ])('refuses a multipart body over 1 MB: %s', async (_label, fields) => {
    const form = new FormData();
    for (const [name, value] of fields as string[][]) form.append(name!, value!);
    const response = await rawRequest(plain.url, '/v2/tokens', { method: 'POST', headers: { 'x-api-key': keys.secretKey }, body: form });
    expectTableRow(response, 'BODY_TOO_LARGE');
  });
});

describe('415 UNSUPPORTED_MEDIA_TYPE', () => {
  it.each(['text/plain', 'application/xml', 'text/html', 'application/octet-stream'])('refuses %s', async (contentType) => {
    const response = await rawRequest(plain.url, '/v2/tokens', {
      method: 'POST',
      headers: { 'x-api-key': keys.secretKey, 'content-type': contentType },
      body: `card[number]=${TEST_PANS.visa}`,
    });
    expectTableRow(response, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('429 RATE_LIMITED', () => {
  it('limits publishable-key token requests per key, with Retry-After', async () => {
    const publishable = client(limited.url, limitedKeys.publishableKey);
    const params = tokenParams(TEST_PANS.visa);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const response = await publishable.post('/v2/tokens', params);
      expect(response.status, `attempt ${attempt}: ${JSON.stringify(response.body)}`).toBe(200);
    }
    const refused = await publishable.post('/v2/tokens', params);
    expectTableRow(refused, 'RATE_LIMITED');
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);

    // Another merchant's publishable key from the same address has its own allowance.
    expect((await client(limited.url, limitedOtherKeys.publishableKey).post('/v2/tokens', params)).status).toBe(200);
  });

  it('does not limit secret keys', async () => {
    const secret = client(limited.url, limitedKeys.secretKey);
    for (let attempt = 1; attempt <= 6; attempt++) {
      const response = await secret.post('/v2/tokens', tokenParams(TEST_PANS.visa));
      expect(response.status, `attempt ${attempt}: ${JSON.stringify(response.body)}`).toBe(200);
    }
  });
});

describe('402 TOKEN_EXPIRED', () => {
  it('answers a charge of a token older than its 15 minutes', async () => {
    const onClock = client(plain.url, (await createKeys(plain.dataDir, 'errors-token-clock')).secretKey);
    const token = await newToken(TEST_PANS.visa, onClock);
    await advanceClock(onClock, 16 * 60);
    expectTableRow(await onClock.post('/v2/charges', chargeParams(token)), 'TOKEN_EXPIRED', { parameter: 'token' });
  });
});

describe('400 LIMIT_EXCEEDED', () => {
  it('answers a 17th webhook endpoint of an account and mode', async () => {
    const many = client(plain.url, (await createKeys(plain.dataDir, 'errors-endpoints')).secretKey);
    for (let n = 0; n < 16; n++) expect((await many.post('/v2/webhook_endpoints', { url: `http://127.0.0.1:9/hooks/${n}` })).status).toBe(200);
    expectTableRow(await many.post('/v2/webhook_endpoints', { url: 'http://127.0.0.1:9/hooks/16' }), 'LIMIT_EXCEEDED');
  });
});

describe('the dashboard API: 401 INVALID_CREDENTIALS, SESSION_EXPIRED; 403 CSRF_REJECTED, ROLE_NOT_ALLOWED', () => {
  it('answers each', async () => {
    await Promise.all([
      createUser(plain.dataDir, 'errors', ADMIN.email, 'admin', ADMIN.password),
      createUser(plain.dataDir, 'errors', VIEWER.email, 'viewer', VIEWER.password),
    ]);
    const admin = dashboardClient(plain.url);
    expectTableRow(await admin.login(ADMIN.email, 'not the password'), 'INVALID_CREDENTIALS');
    expectTableRow(await admin.get('/session'), 'SESSION_EXPIRED');
    expect((await admin.login(ADMIN.email, ADMIN.password)).status).toBe(200);
    const charge = await createCharge(api, TEST_PANS.visa);
    expectTableRow(await admin.post(`/charges/${charge.id}/capture?mode=test`, undefined, { csrf: false }), 'CSRF_REJECTED');
    const viewer = dashboardClient(plain.url);
    expect((await viewer.login(VIEWER.email, VIEWER.password)).status).toBe(200);
    expectTableRow(await viewer.post(`/charges/${charge.id}/capture?mode=test`), 'ROLE_NOT_ALLOWED');
  });
});

describe('the error catalogue', () => {
  // Runs last (tests of a file run in order): every code of the catalogue was answered above, or is listed as not producible here.
  it('was produced row by row', () => {
    const missing = (Object.keys(ERROR_CODES) as Code[]).filter((code) => !produced.has(code) && !(code in NOT_PRODUCED_HERE));
    expect(missing).toEqual([]);
    for (const status of [400, 401, 402, 403, 404, 405, 413, 415, 429]) {
      expect(
        [...produced].some((code) => ERROR_CODES[code].status === status),
        `status ${status}`,
      ).toBe(true);
    }
  });
});
