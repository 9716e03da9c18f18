import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createCharge, TEST_PANS } from './client.ts';
import { createKeys, startServer, TEST_POSTGRES_URL, type TestServer } from './harness.ts';

let server: TestServer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  server = await startServer();
  const keys = await createKeys(server.dataDir, 'smoke');
  api = client(server.url, keys.secretKey);
});
afterAll(() => server?.stop());

describe('a whole flow over HTTP', () => {
  it('creates, captures and refunds a frictionless charge', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    expect(charge).toMatchObject({ status: 'PENDING', threedSecure: { status: 'NOT_AVAILABLE' }, fees: null });
    const captured = await api.post(`/v2/charges/capture/${charge.id}`);
    expect(captured.body).toMatchObject({ status: 'CHARGE_SUCCESS', fees: 33 });
    const refund = await api.post(`/v2/charges/refund/${charge.id}`);
    expect(refund.body).toMatchObject({ type: 'refund', amount: 500, status: 'REFUNDED' });
  });
});

describe('the backend under test', () => {
  it('is the one this vitest project names (PostgreSQL leaves no SQLite file behind)', () => {
    expect(existsSync(join(server.dataDir, 'payframe.sqlite3'))).toBe(TEST_POSTGRES_URL === undefined);
  });
});
