import { request as httpRequest } from 'node:http';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bracketed, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';

/**
 * Multipart bodies over real HTTP, sent byte for byte (node:http, with or without Content-Length):
 * the same 1 MB limit as the other encodings, malformed bodies are 400s, and no body hangs.
 */

let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  server = await startServer();
  secretKey = (await createKeys(server.dataDir, 'multipart')).secretKey;
});
afterAll(() => server?.stop());

const BOUNDARY = 'payframe-test-boundary';

function part(name: string, value: string, headers = ''): string {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${headers}\r\n\r\n${value}\r\n`;
}

function tokenBody(extra = ''): string {
  return (
    bracketed(tokenParams(TEST_PANS.visa))
      .map(([name, value]) => part(name, value))
      .join('') +
    extra +
    `--${BOUNDARY}--\r\n`
  );
}

type Answer = { status: number; body: any };

/** Sends `chunks` as they are; `chunked` leaves out Content-Length. Fails (never hangs) after 10 s. */
function post(chunks: string[], options: { chunked?: boolean; contentType?: string } = {}): Promise<Answer> {
  const body = chunks.join('');
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${server.url}/v2/tokens`,
      {
        method: 'POST',
        headers: {
          'x-api-key': secretKey,
          'content-type': options.contentType ?? `multipart/form-data; boundary=${BOUNDARY}`,
          ...(options.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': Buffer.byteLength(body) }),
        },
        timeout: 10_000,
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer within 10 s')));
    outgoing.on('error', reject);
    for (const chunk of chunks) outgoing.write(chunk);
    outgoing.end();
  });
}

describe('multipart bodies', () => {
  it('answers a body larger than a socket buffer (it used to hang past ~16 KB)', async () => {
    // An unknown field, read whole and then named in the answer: the body was parsed to its end.
    const extra = part('padding', 'x'.repeat(200_000));
    for (const chunked of [false, true]) {
      const answer = await post([tokenBody(extra)], { chunked });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'PARAMETER_UNKNOWN', parameter: 'padding' });
    }
  });

  it('refuses a chunked body over 1 MB with 413, whatever its parts', async () => {
    const fields = Array.from({ length: 15 }, (_, index) => part(`address[f${index}]`, 'a'.repeat(100_000)));
    expectError(await post([...fields, `--${BOUNDARY}--\r\n`], { chunked: true }), 413, 'BODY_TOO_LARGE');
    const oneField = [`--${BOUNDARY}\r\nContent-Disposition: form-data; name="card[name]"\r\n\r\n`, ...Array.from({ length: 12 }, () => 'a'.repeat(100_000))];
    expectError(await post([...oneField, `\r\n--${BOUNDARY}--\r\n`], { chunked: true }), 413, 'BODY_TOO_LARGE');
  });

  it.each([
    ['no boundary parameter', ['a'], 'multipart/form-data'],
    ['an empty boundary', ['a'], 'multipart/form-data; boundary='],
    ['no part at all', ['garbage'], undefined],
    ['a part cut short', [`--${BOUNDARY}\r\nContent-Disposition: form-data; name="card[number]"\r\n\r\n4242`], undefined],
    ['a part without a name', [`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nv\r\n--${BOUNDARY}--\r\n`], undefined],
    ['a file', [tokenBody(part('upload', 'hello', '; filename="a.txt"'))], undefined],
  ])('answers %s with 400 PARAMETER_INVALID', async (_label, chunks, contentType) => {
    expectError(await post(chunks, contentType ? { contentType } : {}), 400, 'PARAMETER_INVALID');
  });

  it('names the part a file was sent in', async () => {
    const answer = await post([tokenBody(part('card[name]', 'hello', '; filename="a.txt"'))]);
    expectError(answer, 400, 'PARAMETER_INVALID');
    expect(answer.body.error.parameter).toBe('card.name');
  });

  it('takes an empty body as no parameters', async () => {
    const answer = await post([]);
    expectError(answer, 400, 'PARAMETER_MISSING');
    expect(answer.body.error.parameter).toBe('card.number');
  });

  it('nests and limits names exactly as a urlencoded body', async () => {
    const tooMany = Array.from({ length: 201 }, (_, index) => part(`f${index}`, '1')).join('');
    expectError(await post([tokenBody(tooMany)]), 400, 'PARAMETER_INVALID');
    expectError(await post([tokenBody(part('card[a][b][c][d][e][f]', '1'))]), 400, 'PARAMETER_INVALID');
    // A JSON-typed part is text like any other: it cannot smuggle in a nested object.
    const json = part('card', JSON.stringify({ number: TEST_PANS.visa }), '\r\nContent-Type: application/json');
    const answer = await post([`${json}--${BOUNDARY}--\r\n`]);
    expectError(answer, 400, 'PARAMETER_INVALID');
    expect(answer.body.error.parameter).toBe('card');
  });
});
