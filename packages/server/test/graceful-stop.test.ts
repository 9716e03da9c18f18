import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeEntries } from '../src/storage/request-log-batch.ts';
import { client, expectErrorShape, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, startServer, TEST_POSTGRES_URL, type TestServer, withStoreOf } from './harness.ts';
import { RawConnection, rawRequest } from './raw-http.ts';

/**
 * SIGTERM stops the server gracefully: it stops accepting connections, every request already
 * received is finished and answered in full, requests that arrive afterwards on connections still
 * open are turned away in the API's error shape, the database is closed, and the process exits 0.
 *
 * "In flight" is made unambiguous: each request goes over a keep-alive connection whose previous
 * request completed, its headers and half its body are sent, and the server has logged its receipt
 * ('incoming request' with a unique URL) before the signal; the rest of the body follows after it.
 */

const CONNECTIONS = 4;
const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
});

describe('SIGTERM', () => {
  it('finishes every request in flight, refuses new connections, closes the database and exits 0', async () => {
    const server = await startServer();
    servers.push(server);
    const { secretKey } = await createKeys(server.dataDir, 'graceful');

    // Keep-alive connections, each with one request completed on it.
    const connections = await Promise.all(Array.from({ length: CONNECTIONS }, () => RawConnection.open(server.url)));
    for (const connection of connections) {
      const warmUp = rawRequest('GET', '/v2/test_helpers/clock', { 'X-Api-Key': secretKey });
      connection.write(warmUp.head);
      expect((await connection.response()).status).toBe(200);
    }

    // A token request on each, half of its body sent, received by the server.
    const requests = connections.map((_, index) => {
      const body = JSON.stringify(tokenParams(TEST_PANS.visa, { shopper: { ip: '203.0.113.7', session_id: `in-flight-${index}`, email: 'ada@example.com' } }));
      return rawRequest('POST', '/v2/tokens', { 'X-Api-Key': secretKey, 'Content-Type': 'application/json' }, body);
    });
    for (const [index, request] of requests.entries()) connections[index]!.write(request.head + request.body.slice(0, request.body.length / 2));
    // Each one's "incoming request" line: the server has them all (an unknown query parameter would be refused, so they are counted).
    await untilLogged(server, '"url":"/v2/tokens"', CONNECTIONS);

    const stopped = server.stop('SIGTERM');
    await server.waitForOutput('"payframe stopping"');

    // The listener is closed: a new connection is refused.
    await expect(RawConnection.open(server.url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    // The rest of each body; the last connection also pipelines a request that arrives after the signal.
    const late = rawRequest('POST', '/v2/test_helpers/clock', { 'X-Api-Key': secretKey, 'Content-Type': 'application/json' }, '{"advance_seconds":1000}');
    for (const [index, request] of requests.entries()) {
      connections[index]!.write(request.body.slice(request.body.length / 2) + (index === CONNECTIONS - 1 ? late.head + late.body : ''));
    }

    const tokens: string[] = [];
    const requestIds: string[] = [];
    for (const [index, connection] of connections.entries()) {
      const response = await connection.response();
      expect(response.status, response.body).toBe(200);
      const token = JSON.parse(response.body);
      expect(token).toMatchObject({ type: 'token', mode: 'test', card: { last4Digits: '4242' } });
      tokens.push(token.id);
      requestIds.push(String(response.headers['request-id']));
      // Answered in full, and told to go: the connection closes after its response.
      expect(response.headers.connection, `connection ${index}`).toBe('close');
    }
    // The late request is not processed: its answer, if the connection still carries one, is the
    // 503; after a `Connection: close` answer Node may drop a pipelined request unanswered instead.
    const turnedAway = await connections
      .at(-1)!
      .response()
      .catch(() => null);
    if (turnedAway) {
      expect(turnedAway.status).toBe(503);
      expectErrorShape(JSON.parse(turnedAway.body));
      expect(JSON.parse(turnedAway.body).error.code).toBe('SERVICE_UNAVAILABLE');
    }
    for (const connection of connections) await connection.closedByServer();

    expect(await stopped).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('"payframe stopped"');
    // SQLite checkpoints and removes its write-ahead log only when the last connection closes cleanly.
    if (!TEST_POSTGRES_URL) {
      expect(existsSync(join(server.dataDir, 'payframe.sqlite3'))).toBe(true);
      expect(existsSync(join(server.dataDir, 'payframe.sqlite3-wal'))).toBe(false);
    }

    // The request log holds them too: answered during the stop, their entries were queued when the
    // database was about to close, and the stop wrote them first.
    const batches = await withStoreOf(server.dataDir, (store) => store.read((db) => db.selectFrom('request_log_batches').select('entries').execute()));
    const logged = batches.flatMap((batch) => decodeEntries(batch.entries).map((entry) => entry.id));
    expect(logged.filter((id) => requestIds.includes(id)).sort()).toEqual([...requestIds].sort());

    // What was answered is stored: a new process on the same data finds every token.
    const again = await startServer({ dataDir: server.dataDir });
    servers.push(again);
    const api = client(again.url, secretKey);
    for (const id of tokens) expect((await api.get(`/v2/tokens/${id}`)).status).toBe(200);
    expect((await api.get('/v2/test_helpers/clock')).body.offset).toBe(0);
    expect(await again.stop('SIGINT')).toEqual({ code: 0, signal: null });
  });

  it('closes idle keep-alive connections at once and exits 0 with nothing in flight', async () => {
    const server = await startServer();
    servers.push(server);
    const idle = await RawConnection.open(server.url);
    idle.write(rawRequest('GET', '/healthz', {}).head);
    expect((await idle.response()).status).toBe(200);
    const stopped = server.stop('SIGTERM');
    await idle.closedByServer();
    expect(await stopped).toEqual({ code: 0, signal: null });
  });

  it('closes a connection that has sent no request yet at once, without waiting out the grace period', async () => {
    const server = await startServer();
    servers.push(server);
    const fresh = await RawConnection.open(server.url);
    // A request on a connection opened after it: once it is answered, the server has accepted both.
    const later = await RawConnection.open(server.url);
    later.write(rawRequest('GET', '/healthz', {}).head);
    expect((await later.response()).status).toBe(200);
    const started = Date.now();
    const stopped = server.stop('SIGTERM');
    await fresh.closedByServer();
    expect(await stopped).toEqual({ code: 0, signal: null });
    // Well under the 10 s grace period.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.output()).not.toContain('after the grace period');
  });

  it('cuts a request that stalls past the grace period, so a stalled client cannot hold the stop', async () => {
    const server = await startServer({ env: { PAYFRAME_SHUTDOWN_GRACE_MS: '300' } });
    servers.push(server);
    const { secretKey } = await createKeys(server.dataDir, 'stalled');
    const stalled = await RawConnection.open(server.url);
    const request = rawRequest(
      'POST',
      '/v2/tokens?stalled=1',
      { 'X-Api-Key': secretKey, 'Content-Type': 'application/json' },
      JSON.stringify(tokenParams(TEST_PANS.visa)),
    );
    stalled.write(request.head + request.body.slice(0, 10));
    await server.waitForOutput('"url":"/v2/tokens?stalled=1"');
    const stopped = server.stop('SIGTERM');
    await stalled.closedByServer();
    expect(await stopped).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('after the grace period');
    expect(server.output()).toContain('"payframe stopped"');
  });
});

/** Resolves once the server's output holds `text` `count` times; fails after 5 s. */
async function untilLogged(server: TestServer, text: string, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (server.output().split(text).length - 1 < count) {
    if (Date.now() > deadline) throw new Error(`${text} logged fewer than ${count} times within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
