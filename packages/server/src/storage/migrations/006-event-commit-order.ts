import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Events gain `txid`, the order in which the live stream reads them (docs/stream.md).
 *
 * On PostgreSQL identity values are handed out when a row is inserted, not when its transaction
 * commits, so an event can become visible after one with a higher `seq`. `txid` is the inserting
 * transaction's id: once every transaction below some id has ended (the snapshot's xmin), the set
 * of events below it is final, and a reader that walks (txid, seq) up to that bound misses none.
 * SQLite has one writer and commits in `seq` order, so its `txid` is 0 and `seq` alone orders.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('events')
    .addColumn('txid', 'bigint', (col) => col.notNull().defaultTo(postgres ? sql`(pg_current_xact_id()::text::bigint)` : 0))
    .execute();
  await db.schema.createIndex('events_commit_order').on('events').columns(['account_id', 'mode', 'txid', 'seq']).execute();
}
