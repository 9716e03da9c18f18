import { request as httpRequest } from 'node:http';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, bracketed, type Client, chargeParams, client, expectErrorShape, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';

/**
 * Every documented limit over real HTTP, exactly at the limit and one past it: string lengths
 * (docs/api.md "Limits"), the Idempotency-Key header, the 1 MB body in every encoding (declared
 * or chunked), and the parser's limits on parameters, nesting and arrays.
 */

let server: TestServer;
let secretKey: string;
let api: Client;

beforeAll(async () => {
  server = await startServer();
  secretKey = (await createKeys(server.dataDir, 'limits')).secretKey;
  api = client(server.url, secretKey);
});
afterAll(() => server?.stop());

const MB = 1024 * 1024;

function expectInvalid(response: ApiResponse, parameter?: string): void {
  expectError(response, 400, 'PARAMETER_INVALID', parameter ? { parameter } : {});
}

function expectOk(response: ApiResponse): void {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/** An e-mail address of exactly `length` characters: a 64-character local part, labels of at most 63. */
function email(length: number): string {
  const labels: string[] = [];
  for (let rest = length - 65 - 4; rest > 0; rest -= 64) labels.push('b'.repeat(Math.min(63, rest)));
  const address = `${'a'.repeat(64)}@${labels.join('.')}.com`;
  expect(address).toHaveLength(length);
  return address;
}

function url(length: number): string {
  const base = 'https://shop.example/';
  return base + 'r'.repeat(length - base.length);
}

function withField(params: Record<string, unknown>, path: string, value: string): Record<string, unknown> {
  const copy = structuredClone(params);
  const segments = path.split('.');
  let target = copy;
  for (const segment of segments.slice(0, -1)) {
    target[segment] ??= {};
    target = target[segment] as Record<string, unknown>;
  }
  target[segments.at(-1)!] = value;
  return copy;
}

describe('string lengths: exactly at the limit is accepted, one past is 400 on that parameter', () => {
  const tokenFields: Array<[string, number, (length: number) => string]> = [
    ['card.name', 100, (n) => 'n'.repeat(n)],
    ['address.address_line1', 200, (n) => 'l'.repeat(n)],
    ['address.address_line2', 200, (n) => 'l'.repeat(n)],
    ['address.city', 100, (n) => 'c'.repeat(n)],
    ['address.state', 100, (n) => 's'.repeat(n)],
    ['address.zipcode', 20, (n) => '9'.repeat(n)],
    ['shopper.session_id', 255, (n) => 's'.repeat(n)],
    ['shopper.email', 254, email],
  ];

  it.each(tokenFields)('token %s ≤ %i', async (path, limit, make) => {
    expectOk(await api.post('/v2/tokens', withField(tokenParams(TEST_PANS.visa), path, make(limit))));
    expectInvalid(await api.post('/v2/tokens', withField(tokenParams(TEST_PANS.visa), path, make(limit + 1))), path);
  });

  const chargeFields: Array<[string, number, (length: number) => string]> = [
    ['description', 1000, (n) => 'd'.repeat(n)],
    ['txn_reference', 255, (n) => 't'.repeat(n)],
    ['return_url', 2048, url],
  ];

  it.each(chargeFields)('charge %s ≤ %i', async (path, limit, make) => {
    const token = (await api.post('/v2/tokens', tokenParams(TEST_PANS.visa))).body.id;
    const accepted = await api.post('/v2/charges', chargeParams(token, { [path]: make(limit) }));
    expectOk(accepted);
    expect(accepted.body[path === 'return_url' ? 'threedSecure' : path]).toEqual(
      path === 'return_url' ? expect.objectContaining({ returnUrl: make(limit) }) : make(limit),
    );
    const next = (await api.post('/v2/tokens', tokenParams(TEST_PANS.visa))).body.id;
    expectInvalid(await api.post('/v2/charges', chargeParams(next, { [path]: make(limit + 1) })), path);
  });

  it('charge amount ≤ 99,999,999 minor units', async () => {
    const token = (await api.post('/v2/tokens', tokenParams(TEST_PANS.visa))).body.id;
    const accepted = await api.post('/v2/charges', chargeParams(token, { amount: '99999999' }));
    expectOk(accepted);
    expect(accepted.body.amount).toBe(99_999_999);
    const next = (await api.post('/v2/tokens', tokenParams(TEST_PANS.visa))).body.id;
    expectInvalid(await api.post('/v2/charges', chargeParams(next, { amount: '100000000' })), 'amount');
  });

  it('charge token ≤ 255 (longer is invalid before any lookup)', async () => {
    expect((await api.post('/v2/charges', chargeParams('t'.repeat(255)))).body.error).toMatchObject({ code: 'RESOURCE_MISSING', parameter: 'token' });
    expectInvalid(await api.post('/v2/charges', chargeParams('t'.repeat(256))), 'token');
  });

  it('Idempotency-Key header ≤ 255', async () => {
    expectOk(await api.post('/v2/tokens', tokenParams(TEST_PANS.visa), { headers: { 'idempotency-key': 'k'.repeat(255) } }));
    expectInvalid(await api.post('/v2/tokens', tokenParams(TEST_PANS.visa), { headers: { 'idempotency-key': 'k'.repeat(256) } }), 'Idempotency-Key');
  });
});

type Raw = { status: number; body: any; connection: string | undefined };

/** Exact bytes through node:http; `chunked` sends no Content-Length. */
function post(body: string, contentType: string, chunked = false, headers: Record<string, string> = {}, path = '/v2/tokens'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${server.url}${path}`,
      {
        method: 'POST',
        headers: {
          'x-api-key': secretKey,
          'content-type': contentType,
          ...headers,
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': Buffer.byteLength(body) }),
        },
        timeout: 15_000,
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(text), connection: incoming.headers.connection }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 15 s')));
    outgoing.on('error', reject);
    // In pieces, as a streaming client sends a large body.
    for (let offset = 0; offset < body.length; offset += 64 * 1024) outgoing.write(body.slice(offset, offset + 64 * 1024));
    outgoing.end();
  });
}

const BOUNDARY = 'limits-boundary';

/** A token body of exactly `size` bytes: the padding is an unknown field, so a body read whole answers PARAMETER_UNKNOWN on it. */
const ENCODINGS: Record<string, { contentType: string; make(size: number): string }> = {
  urlencoded: {
    contentType: 'application/x-www-form-urlencoded',
    make: (size) => {
      const fields = `${new URLSearchParams(bracketed(tokenParams(TEST_PANS.visa))).toString()}&padding=`;
      return fields + 'p'.repeat(size - fields.length);
    },
  },
  JSON: {
    contentType: 'application/json',
    make: (size) => {
      const empty = JSON.stringify({ ...tokenParams(TEST_PANS.visa), padding: '' });
      return empty.replace('"padding":""', `"padding":"${'p'.repeat(size - empty.length)}"`);
    },
  },
  multipart: {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    make: (size) => {
      const part = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const fields = bracketed(tokenParams(TEST_PANS.visa))
        .map(([name, value]) => part(name, value))
        .join('');
      const frame = `${fields + part('padding', '')}--${BOUNDARY}--\r\n`;
      return `${fields + part('padding', 'p'.repeat(size - frame.length))}--${BOUNDARY}--\r\n`;
    },
  },
};

describe('the 1 MB body limit', () => {
  const cases = Object.entries(ENCODINGS).flatMap(([name, encoding]) => [
    [name, 'Content-Length', encoding, false] as const,
    [name, 'chunked', encoding, true] as const,
  ]);

  it.each(cases)('%s (%s): exactly 1 MB is read and validated, one byte more is 413 BODY_TOO_LARGE', async (_name, _framing, encoding, chunked) => {
    const exact = encoding.make(MB);
    expect(Buffer.byteLength(exact)).toBe(MB);
    const served = await post(exact, encoding.contentType, chunked);
    expect(served.status, JSON.stringify(served.body)).toBe(400);
    expect(served.body.error).toMatchObject({ code: 'PARAMETER_UNKNOWN', parameter: 'padding' });

    const over = encoding.make(MB + 1);
    expect(Buffer.byteLength(over)).toBe(MB + 1);
    const refused = await post(over, encoding.contentType, chunked);
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 413, code: 'BODY_TOO_LARGE' });
    expectErrorShape(refused.body);
    // A declared length is refused before reading, without closing: a client still writing reads the 413, not a reset.
    if (!chunked) expect(refused.connection).not.toBe('close');
  });
});

describe('parser limits (docs/security.md "Request limits")', () => {
  const form = (extra: string) => new URLSearchParams(bracketed(tokenParams(TEST_PANS.visa))).toString() + extra;
  const urlencoded = 'application/x-www-form-urlencoded';

  // Within a limit the body is parsed and reaches validation, which names the unknown `p…`
  // (PARAMETER_UNKNOWN); past it the parser refuses the body itself (PARAMETER_INVALID).
  const parsed = (answer: { body: { error: { code: string; parameter?: string } } }) =>
    answer.body.error.code === 'PARAMETER_UNKNOWN' && answer.body.error.parameter?.startsWith('p');

  it('takes 200 parameters and refuses 201', async () => {
    // The token's own 8 fields plus unknown ones.
    const padding = (count: number) => Array.from({ length: count }, (_, index) => `&p${index}=1`).join('');
    expect(parsed(await post(form(padding(192)), urlencoded))).toBe(true);
    const refused = await post(form(padding(193)), urlencoded);
    expect(refused.body.error.code).toBe('PARAMETER_INVALID');
  });

  it('nests bracketed names 5 levels deep and refuses a sixth', async () => {
    expect(parsed(await post(form('&p[a][b][c][d][e]=1'), urlencoded))).toBe(true);
    expect((await post(form('&p[a][b][c][d][e][f]=1'), urlencoded)).body.error.code).toBe('PARAMETER_INVALID');
  });

  it('takes arrays of 100 elements and refuses 101, or an index past 100', async () => {
    const elements = (count: number) => '&p[]=1'.repeat(count);
    expect(parsed(await post(form(elements(100)), urlencoded))).toBe(true);
    expect((await post(form(elements(101)), urlencoded)).body.error.code).toBe('PARAMETER_INVALID');
    expect(parsed(await post(form('&p[99]=1'), urlencoded))).toBe(true);
    expect((await post(form('&p[100]=1'), urlencoded)).body.error.code).toBe('PARAMETER_INVALID');
  });

  it('nests JSON 6 levels deep and refuses a seventh', async () => {
    const body = (depth: number) => JSON.stringify({ ...tokenParams(TEST_PANS.visa), p: JSON.parse(`${'{"a":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)}`) });
    expect(parsed(await post(body(6), 'application/json'))).toBe(true);
    expect((await post(body(7), 'application/json')).body.error.code).toBe('PARAMETER_INVALID');
  });

  it('refuses deep JSON before the Idempotency-Key hash walks it (that recursion was a 500 on routes without a body schema)', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    const refused = await post(deep, 'application/json', false, { 'idempotency-key': 'deep-json' }, '/v2/charges/capture/C0000000000000000000');
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({ status: 400, code: 'PARAMETER_INVALID' });
  });
});
