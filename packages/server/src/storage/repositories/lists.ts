import type { ChargeStatus, EventName } from '@payframe/contract';
import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db.ts';
import type { ChargesTable, RefundsTable } from '../schema.ts';
import { beyondCursor, type PageWindow, type Position, windowOrder } from './keyset.ts';
import type { Owner } from './owned.ts';

export type CreatedRange = { gte?: number | undefined; lt?: number | undefined };

export type ChargeFilters = {
  status?: ChargeStatus | undefined;
  created?: CreatedRange | undefined;
  txnReference?: string | undefined;
  /** Lower case: charges keep a lower-cased copy of the shopper's e-mail. */
  email?: string | undefined;
  last4?: string | undefined;
};

/** The owner's rows, within the creation range: the leading columns of every list index. */
function ownedWithin(owner: Owner, created: CreatedRange | undefined) {
  const conditions = [sql`account_id = ${owner.accountId}`, sql`mode = ${owner.mode}`];
  if (created?.gte !== undefined) conditions.push(sql`created_at >= ${created.gte}`);
  if (created?.lt !== undefined) conditions.push(sql`created_at < ${created.lt}`);
  return sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
}

/**
 * A page of charges. A status filter sees expiry as a read does: a PENDING row created at or
 * before `expiredIfCreatedBy` counts as REFUNDED. REFUNDED is then two index ranges (recorded,
 * and expired but not yet recorded), each read for one page and merged.
 */
export async function listChargeRows(
  db: Db,
  owner: Owner,
  filters: ChargeFilters,
  window: PageWindow,
  expiredIfCreatedBy: number,
): Promise<ChargesTable[]> {
  const order = windowOrder(window);
  const base = () => {
    let query = db.selectFrom('charges').selectAll().where(ownedWithin(owner, filters.created));
    if (filters.txnReference !== undefined) query = query.where('txn_reference', '=', filters.txnReference);
    if (filters.email !== undefined) query = query.where('email', '=', filters.email);
    if (filters.last4 !== undefined) query = query.where('last4', '=', filters.last4);
    return query.where(beyondCursor(window, 'id')).orderBy('created_at', order).orderBy('id', order).limit(window.fetch);
  };
  const pendingPastDeadline = () => base().where('status', '=', 'PENDING').where('created_at', '<=', expiredIfCreatedBy);
  switch (filters.status) {
    case undefined:
      return base().execute();
    case 'PENDING':
      return base().where('status', '=', 'PENDING').where('created_at', '>', expiredIfCreatedBy).execute();
    case 'REFUNDED': {
      const [recorded, expired] = await Promise.all([base().where('status', '=', 'REFUNDED').execute(), pendingPastDeadline().execute()]);
      const sign = order === 'desc' ? -1 : 1;
      return [...recorded, ...expired]
        .sort((a, b) => sign * (a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
        .slice(0, window.fetch);
    }
    default:
      return base().where('status', '=', filters.status).execute();
  }
}

export function listRefundRows(db: Db, owner: Owner, chargeId: string | undefined, window: PageWindow): Promise<RefundsTable[]> {
  const order = windowOrder(window);
  let query = db.selectFrom('refunds').selectAll().where(ownedWithin(owner, undefined));
  if (chargeId !== undefined) query = query.where('charge_id', '=', chargeId);
  return query.where(beyondCursor(window, 'id')).orderBy('created_at', order).orderBy('id', order).limit(window.fetch).execute();
}

export type EventFilters = { name?: EventName | undefined; chargeId?: string | undefined; created?: CreatedRange | undefined };

/** The stored bodies of a page of events; ties within a millisecond keep commit order. */
export async function listEventBodies(db: Db, owner: Owner, filters: EventFilters, window: PageWindow): Promise<string[]> {
  const order = windowOrder(window);
  let query = db.selectFrom('events').select('body').where(ownedWithin(owner, filters.created));
  if (filters.name !== undefined) query = query.where('name', '=', filters.name);
  if (filters.chargeId !== undefined) query = query.where('charge_id', '=', filters.chargeId);
  const rows = await query
    .where(beyondCursor(window, 'seq'))
    .orderBy('created_at', order)
    .orderBy('seq', order)
    .limit(window.fetch)
    .execute();
  return rows.map((row) => row.body);
}

/** Where a cursor object sits, if it exists in the owner's account and mode. */
export async function positionOf(db: Db, owner: Owner, list: 'charges' | 'refunds' | 'events', id: string): Promise<Position | undefined> {
  if (list === 'events') {
    const row = await db
      .selectFrom('events')
      .select(['created_at', 'seq'])
      .where('id', '=', id)
      .where('account_id', '=', owner.accountId)
      .where('mode', '=', owner.mode)
      .executeTakeFirst();
    return row && { createdAt: row.created_at, tie: row.seq };
  }
  const row = await db
    .selectFrom(list)
    .select(['created_at', 'id'])
    .where('id', '=', id)
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
  return row && { createdAt: row.created_at, tie: row.id };
}
