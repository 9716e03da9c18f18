import type { ChargeStatus, EventName } from '@payframe/contract';
import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db.ts';
import type { ChargesTable, RefundsTable } from '../schema.ts';
import { type CreatedRange, type PageWindow, type Position, windowOrder, withinWindow } from './keyset.ts';
import type { Owner } from './owned.ts';

export type { CreatedRange } from './keyset.ts';

export type ChargeFilters = {
  status?: ChargeStatus | undefined;
  created?: CreatedRange | undefined;
  txnReference?: string | undefined;
  /** Lower case: charges keep a lower-cased copy of the shopper's e-mail. */
  email?: string | undefined;
  last4?: string | undefined;
  /** One more column the charge must equal: a dashboard search's reading of what was typed. */
  match?: ChargeMatch | undefined;
};

/** A column a search may find a charge by, each read through its own index (the id through the primary key). */
export type ChargeMatch = { column: 'id' | 'txn_reference' | 'email' | 'last4'; value: string };

/** The owner's rows: the leading columns of every list index. */
function owned(owner: Owner) {
  return sql<SqlBool>`account_id = ${owner.accountId} and mode = ${owner.mode}`;
}

/** The range narrowed to `gte` and `lt` too: each bound of created_at stays a single one. */
function narrowed(created: CreatedRange | undefined, bounds: CreatedRange): CreatedRange {
  const gte = [created?.gte, bounds.gte].filter((time) => time !== undefined);
  const lt = [created?.lt, bounds.lt].filter((time) => time !== undefined);
  return { gte: gte.length ? Math.max(...gte) : undefined, lt: lt.length ? Math.min(...lt) : undefined };
}

/**
 * A page of charges. A status filter sees expiry as a read does: a PENDING row created at or
 * before `expiredIfCreatedBy` counts as REFUNDED. REFUNDED is then two index ranges (recorded,
 * and expired but not yet recorded), each read for one page and merged.
 */
export async function listChargeRows(db: Db, owner: Owner, filters: ChargeFilters, window: PageWindow, expiredIfCreatedBy: number): Promise<ChargesTable[]> {
  const order = windowOrder(window);
  const base = (created: CreatedRange | undefined = filters.created) => {
    let query = db.selectFrom('charges').selectAll().where(owned(owner));
    if (filters.txnReference !== undefined) query = query.where('txn_reference', '=', filters.txnReference);
    if (filters.email !== undefined) query = query.where('email', '=', filters.email);
    if (filters.last4 !== undefined) query = query.where('last4', '=', filters.last4);
    if (filters.match !== undefined) query = query.where(filters.match.column, '=', filters.match.value);
    return query.where(withinWindow(window, created)).orderBy('created_at', order).orderBy('id', order).limit(window.fetch);
  };
  const pendingPastDeadline = () => base(narrowed(filters.created, { lt: Math.floor(expiredIfCreatedBy) + 1 })).where('status', '=', 'PENDING');
  switch (filters.status) {
    case undefined:
      return base().execute();
    case 'PENDING':
      return base(narrowed(filters.created, { gte: Math.floor(expiredIfCreatedBy) + 1 }))
        .where('status', '=', 'PENDING')
        .execute();
    case 'REFUNDED':
      return merged(await Promise.all([base().where('status', '=', 'REFUNDED').execute(), pendingPastDeadline().execute()]), window);
    default:
      return base().where('status', '=', filters.status).execute();
  }
}

/**
 * A page of the charges that match any one of `matches` (and every filter): one page read per
 * match, each on its own index, merged. Never an OR in one query, which would read every row of
 * each match (every charge of a common last 4) to sort them.
 */
export async function listChargeRowsMatchingAny(
  db: Db,
  owner: Owner,
  filters: ChargeFilters,
  matches: ChargeMatch[],
  window: PageWindow,
  expiredIfCreatedBy: number,
): Promise<ChargesTable[]> {
  const pages = await Promise.all(matches.map((match) => listChargeRows(db, owner, { ...filters, match }, window, expiredIfCreatedBy)));
  return merged(pages, window);
}

/**
 * Pages of one window read from several ranges, as one page: in the window's order, each charge
 * once (it may match more than one range), `fetch` at most. Each range's first `fetch` rows hold
 * every row of the merged page, so nothing beyond them is needed.
 */
function merged(pages: ChargesTable[][], window: PageWindow): ChargesTable[] {
  const sign = windowOrder(window) === 'desc' ? -1 : 1;
  const byId = new Map(pages.flat().map((row) => [row.id, row]));
  return [...byId.values()].sort((a, b) => sign * (a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))).slice(0, window.fetch);
}

export function listRefundRows(db: Db, owner: Owner, chargeId: string | undefined, window: PageWindow): Promise<RefundsTable[]> {
  const order = windowOrder(window);
  let query = db.selectFrom('refunds').selectAll().where(owned(owner));
  if (chargeId !== undefined) query = query.where('charge_id', '=', chargeId);
  return query.where(withinWindow(window, undefined)).orderBy('created_at', order).orderBy('id', order).limit(window.fetch).execute();
}

export type EventFilters = { name?: EventName | undefined; chargeId?: string | undefined; created?: CreatedRange | undefined };

/** The stored bodies of a page of events. */
export async function listEventBodies(db: Db, owner: Owner, filters: EventFilters, window: PageWindow): Promise<string[]> {
  const order = windowOrder(window);
  let query = db.selectFrom('events').select('body').where(owned(owner));
  if (filters.name !== undefined) query = query.where('name', '=', filters.name);
  if (filters.chargeId !== undefined) query = query.where('charge_id', '=', filters.chargeId);
  const rows = await query.where(withinWindow(window, filters.created)).orderBy('created_at', order).orderBy('id', order).limit(window.fetch).execute();
  return rows.map((row) => row.body);
}

/** Where a cursor object sits, if it exists in the owner's account and mode. */
export async function positionOf(db: Db, owner: Owner, list: 'charges' | 'refunds' | 'events', id: string): Promise<Position | undefined> {
  const row = await db
    .selectFrom(list)
    .select(['created_at', 'id'])
    .where('id', '=', id)
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
  return row && { createdAt: row.created_at, tie: row.id };
}
