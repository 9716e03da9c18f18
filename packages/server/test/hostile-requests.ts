import { Agent, request as httpRequest } from 'node:http';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import fc from 'fast-check';
import { bracketed } from './client.ts';

/**
 * Arbitraries of hostile HTTP requests for the property tests: field names and values, nesting,
 * prototype-pollution names, every content type, bytes that are not UTF-8, huge values and headers.
 * Requests go out byte for byte through node:http, which (unlike fetch) sends any body with any
 * Content-Type, or none.
 */

export type HostileRequest = {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** What the body was meant to be, for the failure report. */
  label: string;
};

export type Answer = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/**
 * Names of settings the server reads from plain objects (body fields, route config): were any of
 * them to land on Object.prototype, a later ordinary request would behave visibly differently.
 */
export const POLLUTABLE = ['amount', 'txn_reference', 'token', 'access', 'methodNotAllowed', 'testOnly', 'polluted_by_fuzz'] as const;

const ROOTS = ['card', 'shopper', 'address', 'amount', 'token', 'currency', 'description', 'txn_reference', 'return_url', 'advance_seconds', 'result'];
const PROTO = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const SEGMENTS = ['', 'number', 'cvc', 'exp_month', 'name', 'email', '0', '1', '20', '21', '100', 'x', ...PROTO, ...POLLUTABLE];

/** Header-safe text: what node:http lets a client send in a header value. */
const headerText = (maxLength: number) =>
  fc.string({ unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((code) => String.fromCharCode(code)), maxLength });

const segment = fc.oneof({ arbitrary: fc.constantFrom(...SEGMENTS), weight: 3 }, { arbitrary: fc.string({ maxLength: 8 }), weight: 1 });

/** `root[a][b]…`, including `card[number][]`, `card[][]`, `__proto__[x]`, `constructor[prototype][x]`. */
export const fieldName = fc.oneof(
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...ROOTS, ...PROTO, ''), fc.array(segment, { maxLength: 8 }))
      .map(([root, path]) => root + path.map((part) => `[${part}]`).join('')),
    weight: 6,
  },
  { arbitrary: fc.constantFrom('card[number][]', 'card[][]', '[]', ']', '[', 'a.b', 'card.number'), weight: 1 },
  { arbitrary: fc.constantFrom(...POLLUTABLE).map((leaf) => `__proto__[${leaf}]`), weight: 1 },
  { arbitrary: fc.constantFrom(...POLLUTABLE).map((leaf) => `constructor[prototype][${leaf}]`), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
);

export const fieldValue = fc.oneof(
  { arbitrary: fc.string({ maxLength: 40 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.stringMatching(/^[0-9]{0,30}$/), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      TEST_CARDS.visa.number,
      '4242 4242 4242 4242',
      '-1',
      '1e3',
      '0x10',
      '5.5',
      'https://shop.example/r',
      'javascript:alert(1)',
      '%ff%fe',
      '\u0000',
    ),
    weight: 2,
  },
  // Around every length limit (100, 200, 254, 255, 1000, 2048) and the 1 MB body limit.
  {
    arbitrary: fc.constantFrom(99, 100, 101, 254, 255, 256, 1000, 1001, 2048, 2049, 70_000, 1_048_000, 1_100_000).map((length) => 'x'.repeat(length)),
    weight: 1,
  },
);

const pairs = fc.array(fc.tuple(fieldName, fieldValue), { maxLength: 8 });

function formBody(fields: Array<[string, string]>, raw: boolean): string {
  return fields.map(([name, value]) => (raw ? `${name}=${value}` : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)).join('&');
}

function multipartBody(fields: Array<[string, string]>, boundary: string): string {
  return `${fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')}--${boundary}--\r\n`;
}

/** A JSON body: the valid parameters plus arbitrary JSON, optionally with a polluting key spliced in as text. */
const jsonBody = (base: Record<string, unknown>) =>
  fc
    .tuple(
      fc.dictionary(fc.oneof(fc.constantFrom(...ROOTS, ...POLLUTABLE), fc.string({ maxLength: 8 })), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 4 }),
      fc.option(fc.constantFrom(...PROTO.flatMap((name) => POLLUTABLE.map((leaf) => [name, leaf] as const))), { nil: undefined }),
      fc.constantFrom('base', 'arbitrary', 'deep'),
    )
    .map(([extra, poison, shape]) => {
      if (shape === 'deep') return `${'{"card":'.repeat(3000)}1${'}'.repeat(3000)}`;
      const text = JSON.stringify(shape === 'base' ? { ...base, ...extra } : extra);
      if (!poison) return text;
      const [name, leaf] = poison;
      const payload = name === 'constructor' ? `{"prototype":{"${leaf}":"1"}}` : `{"${leaf}":"1"}`;
      return text.startsWith('{') ? `{"${name}":${payload}${text.length > 2 ? ',' : ''}${text.slice(1)}` : text;
    });

const CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'application/json',
  'APPLICATION/JSON; charset=utf-16',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/mixed; boundary=b',
  'text/plain',
  'text/html',
  'application/xml',
  'application/octet-stream',
  '*/*',
  ';;;',
  '',
];

type BodyChoice = { contentType: string | undefined; body: Buffer | undefined; label: string };

/** A body of some kind under some content type: mostly matching, sometimes not, sometimes none. */
export function hostileBody(base: Record<string, unknown>): fc.Arbitrary<BodyChoice> {
  const valid = bracketed(base);
  const fields = fc.tuple(fc.boolean(), pairs).map(([keepValid, extra]) => [...(keepValid ? valid : []), ...extra]);
  const boundary = fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{1,40}$/);
  const declared = fc.oneof(
    { arbitrary: fc.constant('matching' as const), weight: 6 },
    { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 2 },
    { arbitrary: headerText(60), weight: 1 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
  const kinds: Array<fc.Arbitrary<{ kind: string; matching: string; body: Buffer | undefined }>> = [
    fc
      .tuple(fields, fc.boolean())
      .map(([list, raw]) => ({ kind: raw ? 'form (raw)' : 'form', matching: CONTENT_TYPES[0]!, body: Buffer.from(formBody(list, raw)) })),
    fc
      .tuple(fields, boundary)
      .map(([list, b]) => ({ kind: 'multipart', matching: `multipart/form-data; boundary=${b}`, body: Buffer.from(multipartBody(list, b)) })),
    jsonBody(base).map((text) => ({ kind: 'json', matching: 'application/json', body: Buffer.from(text) })),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ kind: 'bytes (not UTF-8)', matching: CONTENT_TYPES[0]!, body: Buffer.from(bytes) })),
    fc.uint8Array({ maxLength: 200 }).map((bytes) => ({
      kind: 'JSON with bytes (not UTF-8)',
      matching: 'application/json',
      body: Buffer.concat([Buffer.from('{"card":{"name":"'), Buffer.from(bytes), Buffer.from('"}}')]),
    })),
    fc.string({ maxLength: 100 }).map((text) => ({ kind: 'text', matching: 'text/plain', body: Buffer.from(text) })),
    fc.constant({ kind: 'no body', matching: 'application/json', body: undefined }),
  ];
  return fc.tuple(fc.oneof(...kinds), declared).map(([{ kind, matching, body }, contentType]) => ({
    contentType: contentType === 'matching' ? matching : contentType,
    body,
    label: `${kind} as ${contentType === 'matching' ? matching : JSON.stringify(contentType)}`,
  }));
}

/** An id for a path: a real one, an arbitrary one percent-encoded, or raw bytes that make a malformed URL. */
export function pathId(realIds: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...realIds), weight: 4 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent), weight: 2 },
    {
      arbitrary: fc.constantFrom('%ZZ', '%ff%fe', '%c3%28', '%00', '..%2F..%2Fhealthz', '%2e%2e', 'x'.repeat(101), 'x'.repeat(300), '__proto__', 'constructor'),
      weight: 1,
    },
  );
}

export const queryString = fc.option(
  fc.oneof(
    fc.constantFrom('__proto__[polluted_by_fuzz]=1', 'constructor[prototype][access]=publishable', 'a[b][c][d][e][f][g]=1', 'amount=1&amount=2', '%ff=%fe'),
    fc.string({ maxLength: 30 }).map(encodeURIComponent),
  ),
  { nil: undefined },
);

/** The key on the request: mostly the test's secret key, sometimes another, a malformed one or none. */
export function apiKeyHeader(keys: { secretKey: string; publishableKey: string }): fc.Arbitrary<Record<string, string>> {
  return fc.oneof(
    { arbitrary: fc.constant({ 'x-api-key': keys.secretKey }), weight: 8 },
    { arbitrary: fc.constant({ 'x-api-key': keys.publishableKey }), weight: 1 },
    { arbitrary: headerText(80).map((key) => ({ 'x-api-key': key })), weight: 1 },
    { arbitrary: fc.constant({}), weight: 1 },
  );
}

export const idempotencyHeader: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { arbitrary: fc.constant({}), weight: 6 },
  { arbitrary: headerText(300).map((key) => ({ 'idempotency-key': key })), weight: 2 },
  // Past Node's 16 KB header limit: answered before any route.
  { arbitrary: fc.constant({ 'idempotency-key': 'k'.repeat(20_000) }), weight: 1 },
);

/** A keep-alive agent: one connection reused across requests, as a real client would. */
export const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** Sends the request as it is; rejects, rather than hangs, when no complete answer arrives in time. */
export function send(baseUrl: string, request: HostileRequest, timeoutMs = 10_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = request.body.length;
    const outgoing = httpRequest(`${baseUrl}${request.path}`, { method: request.method, headers, agent }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        clearTimeout(timer);
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString('utf8') });
      });
      incoming.on('error', reject);
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms: ${request.method} ${request.path.slice(0, 200)} (${request.label})`));
    }, timeoutMs);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.end(request.body);
  });
}
