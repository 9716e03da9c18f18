import { PostgresAdapter, sql } from 'kysely';
import type { Db } from '../db.ts';
import { type Owner, ownedBy } from './owned.ts';

/** A place in the live stream's order: (txid, seq), see migrations/006-event-commit-order.ts. */
export type StreamPosition = { txid: number; seq: number };

export type StreamedEvent = StreamPosition & { id: string; name: string; body: string };

/**
 * Events whose txid is below this are final: every transaction under it has ended, so no event
 * can still appear there. On PostgreSQL that is the statement snapshot's xmin; SQLite commits in
 * seq order with txid 0, so everything it shows is final.
 */
function settledBelow(db: Db) {
  return db.getExecutor().adapter instanceof PostgresAdapter ? sql<number>`pg_snapshot_xmin(pg_current_snapshot())::text::bigint` : sql<number>`1`;
}

export async function streamPositionOf(db: Db, owner: Owner, eventId: string): Promise<StreamPosition | undefined> {
  return db
    .selectFrom('events')
    .select(['txid', 'seq'])
    .where((eb) => eb.and(ownedBy(owner, eventId)))
    .executeTakeFirst();
}

/**
 * Where a stream that resumes from nothing starts: after the owner's last final event, skipping
 * the events already visible beyond it (committed before the stream opened, but not yet final).
 */
export async function streamStart(db: Db, owner: Owner): Promise<{ position: StreamPosition; alreadyVisible: number[] }> {
  const { horizon } = await db.selectNoFrom(settledBelow(db).as('horizon')).executeTakeFirstOrThrow();
  const visible = await db
    .selectFrom('events')
    .select('seq')
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .where('txid', '>=', Number(horizon))
    .execute();
  const last = await db
    .selectFrom('events')
    .select(['txid', 'seq'])
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .where('txid', '<', Number(horizon))
    .orderBy('txid', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { position: last ?? { txid: -1, seq: 0 }, alreadyVisible: visible.map((row) => row.seq) };
}

/** The owner's final events after `position` (and at most `upTo`, when given), in stream order. */
export function settledEventsAfter(db: Db, owner: Owner, position: StreamPosition, limit: number, upTo?: StreamPosition): Promise<StreamedEvent[]> {
  let query = db
    .selectFrom('events')
    .select(['txid', 'seq', 'id', 'name', 'body'])
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .where((eb) => eb(eb.refTuple('txid', 'seq'), '>', eb.tuple(position.txid, position.seq)))
    .where('txid', '<', settledBelow(db));
  if (upTo) query = query.where((eb) => eb(eb.refTuple('txid', 'seq'), '<=', eb.tuple(upTo.txid, upTo.seq)));
  return query.orderBy('txid').orderBy('seq').limit(limit).execute();
}

/** Where each owner's stream has read up to. */
export type OwnerPosition = Owner & { position: StreamPosition };

/**
 * The final events after each owner's position, at most `limit` per owner, in one statement: the
 * shared poll of every stream open on an instance. Each owner's part walks its own range of the
 * commit-order index.
 */
export async function settledEventsOfOwners(db: Db, owners: OwnerPosition[], limit: number): Promise<Array<StreamedEvent & Owner>> {
  const [first, ...rest] = owners.map((owner) =>
    db
      .selectFrom('events')
      .select(['txid', 'seq', 'id', 'name', 'body', 'account_id as accountId', 'mode'])
      .where('account_id', '=', owner.accountId)
      .where('mode', '=', owner.mode)
      .where((eb) => eb(eb.refTuple('txid', 'seq'), '>', eb.tuple(owner.position.txid, owner.position.seq)))
      .where('txid', '<', settledBelow(db))
      .orderBy('txid')
      .orderBy('seq')
      .limit(limit),
  );
  if (!first) return [];
  // Each part keeps its own order and limit inside a derived table: a compound select would apply them to the whole.
  const parts = [first, ...rest].map((part, index) => db.selectFrom(part.as(`part${index}`)).selectAll());
  const [head, ...tail] = parts;
  return tail.reduce((union, part) => union.unionAll(part), head!).execute();
}
