import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { client, createCharge, expectErrorShape, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';

let server: TestServer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startServer();
  api = client(server.url, (await createKeys(server.dataDir, 'fault')).secretKey);
});
afterAll(() => server?.stop());

it('answers a server fault with a bare 500 INTERNAL_ERROR and logs the cause', async () => {
  const charge = await createCharge(api, TEST_PANS.visa);
  await api.post(`/v2/charges/capture/${charge.id}`);

  // A real fault, not a mock: another process renames a table under the running server.
  const sqlite = new SqliteDatabase(join(server.dataDir, 'payframe.sqlite3'));
  sqlite.exec('ALTER TABLE refunds RENAME TO refunds_gone');
  sqlite.close();

  const response = await api.post(`/v2/charges/refund/${charge.id}`, { amount: '100' });
  expect(response.status).toBe(500);
  expectErrorShape(response.body);
  expect(response.body).toEqual({
    type: 'api_error',
    message: response.body.message,
    error: { code: 'INTERNAL_ERROR', message: response.body.message },
  });
  expect(JSON.stringify(response.body)).not.toMatch(/refunds|sqlite|SQL|stack|\.ts/i);
  await server.waitForOutput('no such table: refunds');

  // Nothing half-written: the refund's charge update rolled back with the failed insert.
  const after = await api.get(`/v2/charges/${charge.id}`);
  expect(after.body).toMatchObject({ status: 'CHARGE_SUCCESS', amount_refunded: 0 });
});

it('answers 503 SERVICE_UNAVAILABLE while another process holds the database, and recovers by itself', async () => {
  const blocker = new SqliteDatabase(join(server.dataDir, 'payframe.sqlite3'));
  blocker.exec('BEGIN EXCLUSIVE');
  try {
    // The server waits out its 5 s busy timeout, then gives up with a retryable 503.
    const blocked = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa));
    expect(blocked.status).toBe(503);
    expect(blocked.headers.get('retry-after')).toBe('1');
    expect(blocked.body).toEqual({
      type: 'api_error',
      message: blocked.body.message,
      error: { code: 'SERVICE_UNAVAILABLE', message: blocked.body.message },
    });
  } finally {
    blocker.exec('ROLLBACK');
    blocker.close();
  }
  expect((await api.post('/v2/tokens', tokenParams(TEST_PANS.visa))).status).toBe(200);
});
