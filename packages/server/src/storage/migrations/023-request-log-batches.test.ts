import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { timeHex } from '../../ids.ts';
import { batchesAt, olderBatches } from '../repositories/request-log.ts';
import { decodeEntries } from '../request-log-batch.ts';
import type { Database } from '../schema.ts';
import { MIGRATIONS } from './index.ts';
import { plansOf } from './query-plans.ts';

const owner = { accountId: 'acct_a', mode: 'test' as const };

describe('023-request-log-batches', () => {
  it('moves the entries kept a row each into runs, filed under the time in their ids', async () => {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteDatabase(':memory:') }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    await migrator.migrateTo('022-tokens-sealed-created-at');
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

    await migrator.migrateToLatest();
    const batches = await db.selectFrom('request_log_batches').selectAll().orderBy('id').execute();
    const moved = batches.flatMap((batch) => decodeEntries(batch.entries).map((entry) => ({ ...entry, account_id: batch.account_id, mode: batch.mode })));
    expect(moved.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(rows.map((row) => ({ ...row, created_at: row.created_at - 40 })));
    for (const batch of batches) expect(batch.last_at - batch.first_at).toBeLessThanOrEqual(1_000);
    expect(batches.filter((batch) => batch.account_id === 'acct_a').length).toBe(3);
    const tables = await db.introspection.getTables();
    expect(tables.map((table) => table.name)).not.toContain('request_log');
    await db.destroy();
  });

  it('reads pages and ids on its indexes, from the cursor on rather than from the newest batch', async () => {
    const [older] = await plansOf((db) => olderBatches(db, owner, 1_000, { at: 1_500, id: 7 }, { statuses: 4, text: null }, 8));
    expect(older).toMatch(/^SEARCH request_log_batches USING INDEX request_log_batches_last \(account_id=\? AND mode=\? AND last_at<\?\)$/);
    const [at] = await plansOf((db) => batchesAt(db, owner, 1_000));
    expect(at).toMatch(/^SEARCH request_log_batches USING INDEX request_log_batches_first \(account_id=\? AND mode=\? AND first_at>\? AND first_at<\?\)$/);
  });
});
