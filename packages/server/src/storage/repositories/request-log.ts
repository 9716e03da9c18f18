import { REQUEST_LOG_STATUS_CLASSES, type RequestLogStatusClass } from '@payframe/contract';
import { sql } from 'kysely';
import type { Db } from '../db.ts';
import type { RequestLogTable } from '../schema.ts';
import { isPostgres, portable, runStatement, runText } from '../statements.ts';
import { type PageWindow, windowOrder } from './keyset.ts';
import type { Owner } from './owned.ts';

const COLUMNS = [
  'id',
  'account_id',
  'mode',
  'created_at',
  'method',
  'path',
  'status',
  'duration_ms',
  'key_id',
  'idempotency_key',
  'request',
  'response',
] as const satisfies readonly (keyof RequestLogTable)[];

const INSERT_ONE = portable(
  `insert into request_log (${COLUMNS.join(', ')}) values (${COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}) on conflict (id) do nothing`,
);
const INSERT_MANY_POSTGRES = `insert into request_log (${COLUMNS.join(', ')})
  select ${COLUMNS.join(', ')} from json_populate_recordset(null::request_log, $1::json) on conflict (id) do nothing`;

/** Writes a batch of entries: one statement on PostgreSQL, one cheap statement a row in SQLite's transaction. */
export async function insertRequestLog(db: Db, rows: readonly RequestLogTable[]): Promise<void> {
  if (rows.length === 0) return;
  if (isPostgres(db)) {
    await runText(db, INSERT_MANY_POSTGRES, [JSON.stringify(rows)]);
    return;
  }
  for (const row of rows)
    await runStatement(
      db,
      INSERT_ONE,
      COLUMNS.map((column) => row[column]),
    );
}

export type RequestLogFilter = { status?: RequestLogStatusClass | undefined; path?: string | undefined };

const STATUS_RANGE: Record<RequestLogStatusClass, [number, number]> = Object.fromEntries(
  REQUEST_LOG_STATUS_CLASSES.map((name) => {
    const first = Number(name[0]) * 100;
    return [name, [first, first + 100]];
  }),
) as Record<RequestLogStatusClass, [number, number]>;

export type RequestLogRow = Omit<RequestLogTable, 'request' | 'response'> & { key_hint: string | null };

/** One page of the owner's entries, newest first, on the (account, mode, created_at, id) index. */
export async function listRequestLog(db: Db, owner: Owner, filter: RequestLogFilter, window: PageWindow): Promise<RequestLogRow[]> {
  let query = db
    .selectFrom('request_log')
    .leftJoin('api_keys', 'api_keys.id', 'request_log.key_id')
    .select([
      'request_log.id',
      'request_log.account_id',
      'request_log.mode',
      'request_log.created_at',
      'request_log.method',
      'request_log.path',
      'request_log.status',
      'request_log.duration_ms',
      'request_log.key_id',
      'request_log.idempotency_key',
      'api_keys.hint as key_hint',
    ])
    .where('request_log.account_id', '=', owner.accountId)
    .where('request_log.mode', '=', owner.mode);
  const { cursor } = window;
  if (cursor) {
    // The keyset rule of keyset.ts, with columns named: api_keys has its own created_at and id.
    const older = cursor.direction === 'older';
    query = query.where((eb) =>
      eb.and([
        eb('request_log.created_at', older ? '<=' : '>=', cursor.createdAt),
        eb.or([eb('request_log.created_at', older ? '<' : '>', cursor.createdAt), eb('request_log.id', older ? '<' : '>', cursor.tie)]),
      ]),
    );
  }
  if (filter.status) {
    const [from, to] = STATUS_RANGE[filter.status];
    query = query.where('request_log.status', '>=', from).where('request_log.status', '<', to);
  }
  // A prefix, compared exactly (not as a LIKE pattern, whose `_` and `%` a path may hold).
  if (filter.path) query = query.where(sql<boolean>`substr(request_log.path, 1, ${filter.path.length}) = ${filter.path}`);
  const order = windowOrder(window);
  const rows = await query.orderBy('request_log.created_at', order).orderBy('request_log.id', order).limit(window.fetch).execute();
  return rows.map((row) => ({ ...row, created_at: Number(row.created_at) }));
}

/** Where an entry sits in the list, for a cursor; undefined when it is not the owner's. */
export async function requestLogPosition(db: Db, owner: Owner, id: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('request_log')
    .select('created_at')
    .where('id', '=', id)
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.created_at);
}

export async function findRequestLog(db: Db, owner: Owner, id: string): Promise<(RequestLogTable & { key_hint: string | null }) | undefined> {
  const row = await db
    .selectFrom('request_log')
    .leftJoin('api_keys', 'api_keys.id', 'request_log.key_id')
    .selectAll('request_log')
    .select('api_keys.hint as key_hint')
    .where('request_log.id', '=', id)
    .where('request_log.account_id', '=', owner.accountId)
    .where('request_log.mode', '=', owner.mode)
    .executeTakeFirst();
  return row && { ...row, created_at: Number(row.created_at) };
}

/** Deletes entries written before `cutoff` (real epoch ms). */
export async function deleteRequestLogBefore(db: Db, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('request_log').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
