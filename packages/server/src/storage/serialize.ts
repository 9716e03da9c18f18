import { sql } from 'kysely';
import type { Db } from './db.ts';
import { isPostgres } from './statements.ts';

/**
 * Makes the caller's transaction the only one, among those that name the same thing, between
 * this call and its commit: a count and the insert it allows become one step under any
 * concurrency, on every instance. SQLite's write transactions are serial already (BEGIN
 * IMMEDIATE); on PostgreSQL a transaction-scoped advisory lock per name does it, taken in one
 * order so that two callers never wait on each other.
 */
export async function serializeOn(tx: Db, names: string[]): Promise<void> {
  if (!isPostgres(tx)) return;
  for (const name of [...new Set(names)].sort()) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`.execute(tx);
  }
}
