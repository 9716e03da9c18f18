import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * On SQLite `charges_by_txn_reference` holds only the charges that have a reference: a charge
 * without one (most API charges) no longer adds an entry to it, nor a page to every batch's WAL.
 * A list filtered by reference still reads it: SQLite uses a partial index `where x is not null`
 * for `x = ?`. PostgreSQL keeps it whole (its writes leave the server's thread).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema.dropIndex('charges_by_txn_reference').execute();
  await sql`create index charges_by_txn_reference on charges (account_id, mode, txn_reference, created_at, id) where txn_reference is not null`.execute(db);
}
