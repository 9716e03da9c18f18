/**
 * Migration 023 on a store that kept the request log a row per request (migration 019): SQLite in
 * the server project, PostgreSQL in server-postgres.
 */
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { timeHex } from '../src/ids.ts';
import { MIGRATIONS } from '../src/storage/migrations/index.ts';
import { decodeEntries } from '../src/storage/request-log-batch.ts';
import type { Database } from '../src/storage/schema.ts';
import { TEST_POSTGRES_URL, tempDataDir } from './harness.ts';
import { databaseUrlOf } from './postgres/support.ts';

async function freshDb(): Promise<Kysely<Database>> {
  if (!TEST_POSTGRES_URL) return new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
  const url = await databaseUrlOf(tempDataDir());
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }) });
}

const opened: Kysely<Database>[] = [];
afterAll(async () => {
  for (const db of opened) await db.destroy();
});

describe(`023-request-log-batches on ${TEST_POSTGRES_URL ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('moves the entries kept a row each into runs, filed under the time in their ids', async () => {
    const db = await freshDb();
    opened.push(db);
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    const { error } = await migrator.migrateTo('022-tokens-sealed-created-at');
    expect(error).toBeUndefined();
    const received = Date.UTC(2026, 10, 20);
    // Received over 3 s, answered 40 ms later each; another account's between them.
    const rows = Array.from({ length: 30 }, (_, i) => ({
      id: `req_${timeHex(received + i * 100)}${String(i).padStart(12, '0')}`,
      account_id: i % 3 === 0 ? 'acct_b' : 'acct_a',
      mode: 'test',
      created_at: received + i * 100 + 40,
      method: 'GET',
      path: `/v2/charges/C${i}`,
      status: i % 4 === 0 ? 402 : 200,
      duration_ms: 40,
      key_id: 'key_1',
      idempotency_key: i % 2 === 0 ? `order-${i}` : null,
      request: '{"query":{},"body":null}',
      response: `{"id":"C${i}","note":"a\\nb"}`,
    }));
    const legacy = db as unknown as Kysely<{ request_log: (typeof rows)[number] }>;
    await legacy.insertInto('request_log').values(rows).execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const batches = await db.selectFrom('request_log_batches').selectAll().orderBy('id').execute();
    const moved = batches.flatMap((batch) => decodeEntries(batch.entries).map((entry) => ({ ...entry, account_id: batch.account_id, mode: batch.mode })));
    expect(moved.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(rows.map((row) => ({ ...row, created_at: row.created_at - 40 })));
    for (const batch of batches) expect(Number(batch.last_at) - Number(batch.first_at)).toBeLessThanOrEqual(1_000);
    expect(batches.filter((batch) => batch.account_id === 'acct_a').length).toBe(3);
    const tables = await db.introspection.getTables();
    expect(tables.map((table) => table.name)).not.toContain('request_log');
  });
});
