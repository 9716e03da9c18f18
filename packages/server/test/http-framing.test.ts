import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectErrorShape } from './client.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';

/**
 * Requests that Node's HTTP parser refuses before any route runs still get the JSON error shape of
 * docs/api.md "Errors" (not Fastify's own `{"error","statusCode"}`), and the connection is closed after it.
 */

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  server = await startServer();
  secretKey = (await createKeys(server.dataDir, 'framing')).secretKey;
});
afterAll(() => server?.stop());

/** Writes raw bytes on a fresh connection and reads until the server closes it. */
function exchange(raw: string): Promise<string> {
  return exchangeWith(server.url, raw);
}

/** `end`: half-close after writing, as a client that sent everything does; otherwise keep sending nothing more. */
function exchangeWith(url: string, raw: string, end = true): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => (end ? socket.end(raw) : socket.write(raw)));
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
  });
}

/**
 * Without half-closing: Node aborts a request whose client half-closes before the answer is ready
 * (an async route on PostgreSQL). The request asks the server to close once it has answered.
 */
function exchangeWhole(raw: string): Promise<string> {
  return exchangeWith(server.url, raw, false);
}

function parse(response: string): { status: number; headers: string; body: any } {
  const [head = '', body = ''] = response.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

describe('requests refused by the HTTP parser', () => {
  it.each([
    ['headers over 16 KB', `GET /v2/charges/C1 HTTP/1.1\r\nHost: x\r\nX-Api-Key: KEY\r\nIdempotency-Key: ${'k'.repeat(20_000)}\r\n\r\n`],
    ['a malformed request line', 'NOT HTTP AT ALL\r\n\r\n'],
    ['a malformed header', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'],
    ['a Content-Length that is not a number', 'POST /v2/tokens HTTP/1.1\r\nHost: x\r\nX-Api-Key: KEY\r\nContent-Length: abc\r\n\r\n'],
  ])('answers %s with 400 PARAMETER_INVALID in the error shape, not cached, and closes', async (_label, raw) => {
    const answer = parse(await exchange(raw.replace('KEY', secretKey)));
    expect(answer.status).toBe(400);
    expect(answer.headers).toContain('content-type: application/json');
    expect(answer.headers).toContain('cache-control: no-store');
    expect(answer.headers).toContain('x-content-type-options: nosniff');
    expect(answer.headers).toContain('connection: close');
    expectErrorShape(answer.body);
    expect(answer.body.error.code).toBe('PARAMETER_INVALID');
  });

  it('answers a request whose body stops arriving, once the request timeout has passed, and closes', async () => {
    const slow = await startServer({ env: { PAYFRAME_REQUEST_TIMEOUT_MS: '500' } });
    try {
      const { secretKey: key } = await createKeys(slow.dataDir, 'slow');
      const started = Date.now();
      // Headers and the start of a body that never ends.
      const answer = parse(
        await exchangeWith(
          slow.url,
          `POST /v2/tokens HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"card":`,
          false,
        ),
      );
      expect(answer.status).toBe(400);
      expectErrorShape(answer.body);
      expect(answer.body.error).toMatchObject({ code: 'PARAMETER_INVALID', message: 'The request was not received in time.' });
      expect(answer.headers).toContain('connection: close');
      // The timeout (0.5 s), found by a check that runs every second.
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await slow.stop();
    }
  });
});

describe('requests Node would answer outside the API', () => {
  it('an HTTP/1.1 request without Host is 400 PARAMETER_INVALID in the error shape', async () => {
    const answer = parse(await exchangeWhole(`GET /v2/charges/C1 HTTP/1.1\r\nX-Api-Key: ${secretKey}\r\nConnection: close\r\n\r\n`));
    expect(answer.status).toBe(400);
    expect(answer.headers).toContain('content-type: application/json');
    expectErrorShape(answer.body);
    expect(answer.body.error).toMatchObject({ code: 'PARAMETER_INVALID', message: 'The request has no Host header.' });
  });

  it('an HTTP/1.0 request needs no Host', async () => {
    const answer = parse(await exchangeWhole(`GET /v2/test_helpers/clock HTTP/1.0\r\nX-Api-Key: ${secretKey}\r\n\r\n`));
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('test_clock');
  });

  it('an Expect other than 100-continue is ignored and the request served', async () => {
    const answer = parse(
      await exchangeWhole(`GET /v2/test_helpers/clock HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${secretKey}\r\nExpect: 200-ok\r\nConnection: close\r\n\r\n`),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('test_clock');
  });

  it('CONNECT is 405 METHOD_NOT_ALLOWED in the error shape, with Allow, and closes', async () => {
    const answer = parse(await exchangeWhole('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expect(answer.status).toBe(405);
    expect(answer.headers).toContain('allow: get, head, post, delete, options');
    expect(answer.headers).toContain('connection: close');
    expectErrorShape(answer.body);
    expect(answer.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('keeps serving afterwards', async () => {
    expect((await client(server.url).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await client(server.url, secretKey).get('/v2/test_helpers/clock')).status).toBe(200);
  });
});
