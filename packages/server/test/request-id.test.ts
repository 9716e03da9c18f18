import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, rawRequest } from './client.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';

/** Every /v2 answer names its request, and the server's log lines for that request carry the same id. */

const REQUEST_ID = /^req_[0-9a-f]{24}$/;
let server: TestServer;
let secretKey: string;

beforeAll(async () => {
  server = await startServer();
  secretKey = (await createKeys(server.dataDir, 'request-id')).secretKey;
});
afterAll(() => server?.stop());

describe('Request-Id', () => {
  it('is on successes and on every kind of error, a new one each time, never the one a client sent', async () => {
    const api = client(server.url, secretKey);
    const answers = [
      await api.get('/v2/charges'),
      await api.get('/v2/charges?limit=0'),
      await client(server.url).get('/v2/charges'),
      await api.get('/v2/no_such_route'),
      await api.request('PUT', '/v2/charges'),
      await rawRequest(server.url, '/v2/charges/%ZZ', { headers: { 'x-api-key': secretKey } }),
      await api.get('/v2/charges', { headers: { 'request-id': 'req_chosen_by_the_client' } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 401, 404, 405, 400, 200]);
    const ids = answers.map((answer) => answer.headers.get('request-id') ?? '');
    for (const id of ids) expect(id).toMatch(REQUEST_ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('begins with the time it was made, so the request log grows at its end', async () => {
    const before = Date.now();
    const answer = await client(server.url, secretKey).get('/v2/charges');
    const after = Date.now();
    const made = Number.parseInt((answer.headers.get('request-id') ?? '').slice(4, 16), 16);
    expect(made).toBeGreaterThanOrEqual(before);
    expect(made).toBeLessThanOrEqual(after);
  });

  it("is in the server's log lines for that request", async () => {
    // A charge id of 33 digits: too long to be taken for a card number and redacted.
    const path = `/v2/charges/C${'0'.repeat(33)}`;
    const answer = await client(server.url, secretKey).get(path);
    expect(answer.status).toBe(404);
    const id = answer.headers.get('request-id') ?? '';
    // The "request completed" line is written after the answer is sent: wait for it, not for the first line.
    await server.waitForOutput(`"requestId":"${id}","res"`);
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes(`"requestId":"${id}"`));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.some((line) => line.includes(path))).toBe(true);
  });
});
