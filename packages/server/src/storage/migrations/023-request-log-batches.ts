import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { requestIdTime } from '../../ids.ts';
import { batchesOf } from '../request-log-batch.ts';
import type { Database, RequestLogEntryRow } from '../schema.ts';

/** The request_log table of migration 019, which this one empties and drops. */
type EntryPerRow = RequestLogEntryRow & { account_id: string; mode: 'test' | 'live' };

const COPIED_AT_ONCE = 2_000;

/**
 * The request log moves from a row per request to a row per run of requests (request-log-batch.ts):
 * the row per request was four b-tree inserts for every /v2 request. An entry is now filed under
 * the time its request was received (the time in its id) rather than when it was answered, so that
 * its id alone finds it; the entries kept so far are copied over with that time.
 *
 * Lists read the runs newest first by their last entry (request_log_batches_last) and, for a page
 * newer than a cursor, oldest first by their first (request_log_batches_first); the sweeper deletes
 * by age alone (request_log_batches_age).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('request_log_batches')
    .addColumn('id', postgres ? 'bigint' : 'integer', (col) => (postgres ? col.primaryKey().generatedAlwaysAsIdentity() : col.primaryKey()))
    .addColumn('account_id', 'text', (col) => col.notNull())
    .addColumn('mode', 'text', (col) => col.notNull())
    .addColumn('first_at', 'bigint', (col) => col.notNull())
    .addColumn('last_at', 'bigint', (col) => col.notNull())
    .addColumn('statuses', 'integer', (col) => col.notNull())
    .addColumn('entries', 'text', (col) => col.notNull())
    .execute();
  // A run's text is tens of kilobytes, written once and seldom read: PostgreSQL would compress it
  // (pglz) on the server's CPU, which the flow shares on a small host, for disk it keeps 7 days.
  if (postgres) await sql`alter table request_log_batches alter column entries set storage external`.execute(db);
  await db.schema.createIndex('request_log_batches_last').on('request_log_batches').columns(['account_id', 'mode', 'last_at', 'id']).execute();
  await db.schema.createIndex('request_log_batches_first').on('request_log_batches').columns(['account_id', 'mode', 'first_at', 'id']).execute();
  await db.schema.createIndex('request_log_batches_age').on('request_log_batches').column('last_at').execute();

  const typed = db as unknown as Kysely<Database & { request_log: EntryPerRow }>;
  let after = '';
  for (;;) {
    const rows = await typed.selectFrom('request_log').selectAll().where('id', '>', after).orderBy('id').limit(COPIED_AT_ONCE).execute();
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    const owned = rows.map(({ account_id, mode, ...entry }) => ({
      account_id,
      mode,
      entry: { ...entry, created_at: requestIdTime(entry.id) ?? Number(entry.created_at) },
    }));
    await typed.insertInto('request_log_batches').values(batchesOf(owned)).execute();
  }
  await db.schema.dropTable('request_log').execute();
}
