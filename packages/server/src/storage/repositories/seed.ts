import { sql } from 'kysely';
import type { Db } from '../db.ts';
import type { ChargesTable, RefundsTable, TokensTable } from '../schema.ts';
import type { NewEvent } from './events.ts';

export type SeedBatch = { tokens: TokensTable[]; charges: ChargesTable[]; refunds: RefundsTable[]; events: NewEvent[] };

/**
 * Rows per INSERT: many rows a statement keeps the per-statement cost low, and the widest table
 * (tokens, 27 columns) stays under both stores' limit on bound parameters.
 */
const ROWS_PER_STATEMENT = 500;

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) await insert(rows.slice(start, start + ROWS_PER_STATEMENT));
}

/** Writes generated rows in bulk, in the caller's transaction: tokens before the charges that use them. */
export async function insertSeedBatch(db: Db, batch: SeedBatch): Promise<void> {
  await insertChunked(batch.tokens, (chunk) => db.insertInto('tokens').values(chunk).execute());
  await insertChunked(batch.charges, (chunk) => db.insertInto('charges').values(chunk).execute());
  await insertChunked(batch.refunds, (chunk) => db.insertInto('refunds').values(chunk).execute());
  await insertChunked(batch.events, (chunk) => db.insertInto('events').values(chunk).execute());
}

/** Fresh planner statistics after a bulk load, so that each list filter gets its index at once (both stores take ANALYZE). */
export async function analyzeAfterBulkLoad(db: Db): Promise<void> {
  await sql`analyze`.execute(db);
}
