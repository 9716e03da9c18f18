import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Fewer b-tree writes per charge on SQLite, where every index entry is written on the one thread
 * that serves requests. `events_by_seq` goes: SQLite's `txid` is always 0, so `events_commit_order`
 * (account, mode, txid, seq) already orders the same rows the same way, and the stream reads by it.
 * The sweepers' indexes become partial: a charge leaves `charges_pending_deadline` when it settles
 * and a token leaves `tokens_unused_created_at` when it is charged, instead of moving within them.
 * PostgreSQL keeps its indexes: there `txid` varies, and its writes leave the server's thread.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema.dropIndex('events_by_seq').execute();
  await db.schema.dropIndex('charges_pending_deadline').execute();
  await sql`create index charges_pending_deadline on charges (created_at) where status = 'PENDING'`.execute(db);
  await db.schema.dropIndex('tokens_unused_created_at').execute();
  await sql`create index tokens_unused_created_at on tokens (created_at) where used_at is null`.execute(db);
}
