import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../db.ts';
import { type NewRequestLogBatch, RUN_SPAN_MS } from '../request-log-batch.ts';
import type { Database } from '../schema.ts';
import { isPostgres, portable, runStatement } from '../statements.ts';
import type { Owner } from './owned.ts';

const INSERT = portable('insert into request_log_batches (account_id, mode, first_at, last_at, statuses, entries) values ($1, $2, $3, $4, $5, $6)');

/** Writes runs of entries, a row each: most flushes of the log write one. */
export async function insertRequestLogBatches(db: Db, batches: readonly NewRequestLogBatch[]): Promise<void> {
  for (const batch of batches) await runStatement(db, INSERT, [batch.account_id, batch.mode, batch.first_at, batch.last_at, batch.statuses, batch.entries]);
}

/** A batch as lists read it: where it sits, and its entries' text. */
export type StoredBatch = { id: number; first_at: number; last_at: number; entries: string };

/** Which batches a list may skip: those without an entry of the status classes, or whose text lacks `text`. */
export type BatchFilter = { statuses: number | null; text: string | null };

/** Where the last batch read sat in its order, to read on from. */
export type BatchPosition = { at: number; id: number };

/**
 * The next `limit` batches that may hold entries received at `before` or earlier, newest last
 * entry first, after the position given. A batch spans at most RUN_SPAN_MS, so one that holds such
 * an entry ended by `before` + RUN_SPAN_MS: the scan starts there, not at the newest batch.
 */
export async function olderBatches(
  db: Db,
  owner: Owner,
  before: number | null,
  after: BatchPosition | null,
  filter: BatchFilter,
  limit: number,
): Promise<StoredBatch[]> {
  let query = filtered(db, owner, filter);
  if (before !== null) query = query.where('first_at', '<=', before).where('last_at', '<=', before + RUN_SPAN_MS);
  if (after) query = query.where((eb) => eb.or([eb('last_at', '<', after.at), eb.and([eb('last_at', '=', after.at), eb('id', '<', after.id)])]));
  return numbered(await query.orderBy('last_at', 'desc').orderBy('id', 'desc').limit(limit).execute());
}

/** The next `limit` batches that may hold entries received at `since` or later, oldest first entry first. */
export async function newerBatches(
  db: Db,
  owner: Owner,
  since: number,
  after: BatchPosition | null,
  filter: BatchFilter,
  limit: number,
): Promise<StoredBatch[]> {
  let query = filtered(db, owner, filter)
    .where('last_at', '>=', since)
    .where('first_at', '>=', since - RUN_SPAN_MS);
  if (after) query = query.where((eb) => eb.or([eb('first_at', '>', after.at), eb.and([eb('first_at', '=', after.at), eb('id', '>', after.id)])]));
  return numbered(await query.orderBy('first_at', 'asc').orderBy('id', 'asc').limit(limit).execute());
}

/** The batches that may hold an entry received at `at`: a few, those of the second before it. */
export async function batchesAt(db: Db, owner: Owner, at: number): Promise<StoredBatch[]> {
  const rows = await filtered(db, owner, { statuses: null, text: null })
    .where('first_at', '>=', at - RUN_SPAN_MS)
    .where('first_at', '<=', at)
    .where('last_at', '>=', at)
    .orderBy('first_at', 'desc')
    .execute();
  return numbered(rows);
}

function filtered(db: Db, owner: Owner, filter: BatchFilter): SelectQueryBuilder<Database, 'request_log_batches', StoredBatch> {
  let query = db
    .selectFrom('request_log_batches')
    .select(['id', 'first_at', 'last_at', 'entries'])
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode);
  if (filter.statuses !== null) query = query.where(sql<boolean>`(statuses & ${filter.statuses}) <> 0`);
  if (filter.text !== null) {
    const search = isPostgres(db) ? sql`strpos(entries, ${filter.text})` : sql`instr(entries, ${filter.text})`;
    query = query.where(sql<boolean>`${search} > 0`);
  }
  return query;
}

/** PostgreSQL answers bigint columns as text. */
function numbered(rows: StoredBatch[]): StoredBatch[] {
  return rows.map((row) => ({ id: Number(row.id), first_at: Number(row.first_at), last_at: Number(row.last_at), entries: row.entries }));
}

/** Deletes the batches whose last entry was received before `cutoff` (real epoch ms); answers how many. */
export async function deleteRequestLogBefore(db: Db, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('request_log_batches').where('last_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
