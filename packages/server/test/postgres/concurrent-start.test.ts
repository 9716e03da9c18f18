import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/storage/migrations/index.ts';
import { type Client, chargeParams, client, createCharge, TEST_PANS, tokenParams } from '../client.ts';
import { createKeys, type Keys, startServer, type TestServer, tempDataDir } from '../harness.ts';
import { databaseUrlOf, requirePostgres, withDatabase } from './support.ts';

/**
 * Three instances started at the same moment on one empty database (and one empty data directory):
 * the migrations run once (Kysely's advisory lock), the master key file is made once, and all
 * three come up and serve.
 */

const PUBLIC_URL = 'https://pay.example.test';
/** The tables of 001-initial; later migrations may add more. */
const TABLES = ['accounts', 'api_keys', 'charges', 'idempotency_keys', 'refunds', 'tokens'];

let dataDir: string;
let databaseUrl: string;
let servers: TestServer[] = [];
let keys: Keys;
let apis: Client[];

async function publicTables(): Promise<string[]> {
  const { rows } = await withDatabase(databaseUrl, (db) =>
    db.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public' order by table_name"),
  );
  return rows.map((row) => row.table_name);
}

beforeAll(async () => {
  requirePostgres();
  dataDir = tempDataDir();
  // Creates the (empty) database; no server and no CLI has touched it yet.
  databaseUrl = await databaseUrlOf(dataDir);
  expect(await publicTables()).toEqual([]);

  const starting = [0, 1, 2].map(() => startServer({ dataDir, args: ['--public-url', PUBLIC_URL] }));
  const settled = await Promise.allSettled(starting);
  servers = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failures = settled.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  expect(failures, failures.join('\n')).toEqual([]);

  keys = await createKeys(dataDir, 'concurrent-start');
  apis = servers.map((server) => client(server.url, keys.secretKey));
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

describe('three instances starting at once on one empty database', () => {
  it('all three become ready, on three ports, and answer /healthz', async () => {
    expect(servers).toHaveLength(3);
    expect(new Set(servers.map((server) => server.url)).size).toBe(3);
    for (const server of servers) {
      const response = await fetch(`${server.url}/healthz`);
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: { status: 'ok' } });
    }
  });

  it('each serves a token → charge → capture flow', async () => {
    for (const api of apis) {
      const charge = await createCharge(api, TEST_PANS.visa, { amount: '500' });
      const captured = await api.post(`/v2/charges/capture/${charge.id}`);
      expect(captured.status, JSON.stringify(captured.body)).toBe(200);
      expect(captured.body).toMatchObject({ id: charge.id, status: 'CHARGE_SUCCESS', fees: 33 });
    }
  });

  it('they share one store and one master key: a flow crossing all three works, and their 3-D Secure links agree', async () => {
    for (let first = 0; first < 3; first++) {
      const [a, b, c] = [apis[first]!, apis[(first + 1) % 3]!, apis[(first + 2) % 3]!];
      const token = await a.post('/v2/tokens', tokenParams(TEST_PANS.visa3ds));
      expect(token.status, JSON.stringify(token.body)).toBe(200);
      // The card sealed by one instance is opened by the next one.
      const charge = await b.post('/v2/charges', chargeParams(token.body.id, { amount: '900' }));
      expect(charge.status, JSON.stringify(charge.body)).toBe(200);
      const redirects = await Promise.all(apis.map(async (api) => (await api.get(`/v2/charges/${charge.body.id}`)).body.threedSecure.redirect as string));
      expect(new Set(redirects).size, JSON.stringify(redirects)).toBe(1);
      expect(redirects[0]).toBe(charge.body.threedSecure.redirect);
      expect((await c.post(`/v2/test_helpers/charges/${charge.body.id}/authenticate`, { result: 'success' })).body.threedSecure.status).toBe('CHARGEABLE');
      expect((await a.post(`/v2/charges/capture/${charge.body.id}`)).body).toMatchObject({ status: 'CHARGE_SUCCESS', threedSecure: { status: 'CAPTURED' } });
    }
  });

  it('ran each migration exactly once', async () => {
    const names = Object.keys(MIGRATIONS);
    expect(names).toContain('001-initial');
    const { rows } = await withDatabase(databaseUrl, (db) => db.query<{ name: string }>('select name from kysely_migration order by name'));
    expect(rows.map((row) => row.name)).toEqual([...names].sort());
    const count = await withDatabase(databaseUrl, (db) => db.query<{ count: string }>('select count(*) from kysely_migration'));
    expect(Number(count.rows[0]?.count)).toBe(names.length);
  });

  it('made every table once, in the public schema only', async () => {
    const tables = await publicTables();
    for (const table of [...TABLES, 'kysely_migration', 'kysely_migration_lock']) expect(tables, JSON.stringify(tables)).toContain(table);
    const { rows } = await withDatabase(databaseUrl, (db) =>
      db.query<{ table_schema: string; table_name: string }>(
        "select table_schema, table_name from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') order by table_name",
      ),
    );
    // Nothing made twice or elsewhere: every table is in public, each name once.
    expect(rows.filter((row) => row.table_schema !== 'public')).toEqual([]);
    expect(rows.map((row) => row.table_name)).toEqual(tables);
    expect(new Set(tables).size).toBe(tables.length);
    const lock = await withDatabase(databaseUrl, (db) => db.query<{ count: string }>('select count(*) from kysely_migration_lock'));
    expect(Number(lock.rows[0]?.count)).toBe(1);
  });

  it('logged no error while starting together', () => {
    for (const server of servers) expect(server.output()).not.toMatch(/"level":(50|60)/);
  });
});
