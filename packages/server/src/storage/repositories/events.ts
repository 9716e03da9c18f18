import type { OverviewWrite } from '../../domain/overview.ts';
import { atomically } from '../atomically.ts';
import type { Db } from '../db.ts';
import type { EventsTable } from '../schema.ts';
import { allColumns, type BoundStatement, columnList, isPostgres, placeholders, portable, prepared, runStatement, runText } from '../statements.ts';
import { addOverview, overviewCte, overviewParams } from './overview.ts';
import { type Owner, ownedBy } from './owned.ts';
import { fanOutPostgres, fanOutSqlite } from './webhook-fan-out.ts';

export type NewEvent = Omit<EventsTable, 'seq' | 'txid'>;

const EVENT_COLUMNS = allColumns<NewEvent>()(['id', 'account_id', 'mode', 'name', 'charge_id', 'created_at', 'body']);

const INSERT_EVENT = portable(`insert into events (${columnList(EVENT_COLUMNS)}) values (${placeholders(EVENT_COLUMNS.length)})`);

/** A pending delivery, due now, to each endpoint that takes the event (webhook-fan-out.ts). */
const QUEUE_DELIVERIES = { postgres: (event: string, now: string) => fanOutPostgres(event, now), sqlite: fanOutSqlite() };

/** On PostgreSQL the change, its event and the event's deliveries are one statement, built once per kind of change. */
const combined = new Map<string, string>();

function combinedText(change: BoundStatement | null, counted: boolean): string {
  const key = `${counted ? '+' : '-'}${change?.statement.postgres ?? ''}`;
  let text = combined.get(key);
  if (text === undefined) {
    const from = (change?.params.length ?? 0) + 1;
    // Typed: parameters in a select list would otherwise be taken for text.
    const values = EVENT_COLUMNS.map((column, i) => `$${from + i}::${column === 'created_at' ? 'bigint' : 'text'}`);
    const eventInsert = `insert into events (${columnList(EVENT_COLUMNS)}) select ${values.join(', ')}`;
    const now = `$${from + EVENT_COLUMNS.length}::bigint`;
    const counters = counted ? `, counters as (${overviewCte(from + EVENT_COLUMNS.length + 1, change ? 'change' : null)})` : '';
    text = change
      ? `with change as (${change.statement.postgres}),
        event as (${eventInsert} from change returning id, account_id, mode, name),
        deliveries as (${QUEUE_DELIVERIES.postgres('event', now)})${counters}
        select 1 as written from change`
      : `with event as (${eventInsert} returning id, account_id, mode, name),
        deliveries as (${QUEUE_DELIVERIES.postgres('event', now)})${counters}
        select 1 as written`;
    combined.set(key, prepared(text));
  }
  return text;
}

/**
 * Writes a change of a charge with its event and the event's pending deliveries, all or nothing
 * (the transactional outbox: no change without its event, no event without its change). The change
 * (a statement that returns a row when it wrote) may write nothing, a lost conditional update: then
 * no event is written either and this answers false. `now` is the deliveries' real time. The
 * home page's daily counters of the change (`overview`) are written with it, all or nothing.
 */
export async function writeWithEvent(
  db: Db,
  change: BoundStatement | null,
  event: NewEvent,
  now: number,
  overview: OverviewWrite | null = null,
): Promise<boolean> {
  const eventParams = EVENT_COLUMNS.map((column) => event[column]);
  const counted = overview !== null && overview.deltas.length > 0;
  if (isPostgres(db)) {
    const params = [...(change?.params ?? []), ...eventParams, now, ...(counted ? overviewParams(overview) : [])];
    const rows = await runText(db, combinedText(change, counted), params);
    return rows.length === 1;
  }
  // SQLite: statements cost no round trip; a savepoint holds them together unless the caller's transaction does.
  return atomically(db, async (tx) => {
    if (change && (await runStatement(tx, change.statement, change.params)).length === 0) return false;
    await runStatement(tx, INSERT_EVENT, eventParams);
    await runText(tx, QUEUE_DELIVERIES.sqlite, [now, now, now, event.id]);
    if (counted) await addOverview(tx, overview);
    return true;
  });
}

export function findEvent(db: Db, owner: Owner, id: string) {
  return db
    .selectFrom('events')
    .selectAll()
    .where((eb) => eb.and(ownedBy(owner, id)))
    .executeTakeFirst();
}
