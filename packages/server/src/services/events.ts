import { type Charge, type Event, type EventName, type Mode, PayframeError, type Refund } from '@payframe/contract';
import { epochSeconds } from '../domain/clock.ts';
import { changeDeltas, type OverviewWrite, shardOf, utcDay } from '../domain/overview.ts';
import { findEvent, type NewEvent, writeWithEvent } from '../storage/repositories/events.ts';
import type { Owner } from '../storage/repositories/owned.ts';
import type { BoundStatement } from '../storage/statements.ts';
import type { Db, ServiceDeps } from './context.ts';

export type EventInput = {
  accountId: string;
  mode: Mode;
  name: EventName;
  /** When the change happened, on the charge's clock (the account's test clock in test mode). */
  at: number;
  /** The charge after the change, as the API shows it. */
  charge: Charge;
  /** Only on `charge.refunded`. */
  refund?: Refund;
};

/**
 * The event's envelope and its stored row, body included: the one shape of every recorded event,
 * whether a request records it or `payframe seed` writes it in bulk.
 */
export function newEvent(deps: Pick<ServiceDeps, 'ids'>, input: EventInput): { event: Event; row: NewEvent } {
  const { accountId, mode, name, at, charge, refund } = input;
  const event: Event = {
    type: 'event',
    id: deps.ids.prefixed('evt'),
    name,
    created: epochSeconds(at),
    mode,
    data: refund ? { object: charge, refund } : { object: charge },
  };
  return { event, row: { id: event.id, account_id: accountId, mode, name, charge_id: charge.id, created_at: at, body: JSON.stringify(event) } };
}

/** The home page's counters a change adds to, on the day of the change on the charge's clock. */
function overviewOf(input: EventInput): OverviewWrite {
  return {
    accountId: input.accountId,
    mode: input.mode,
    day: utcDay(input.at),
    shard: shardOf(input.charge.id),
    deltas: changeDeltas(input.name, input.charge, input.refund),
  };
}

/**
 * Records one change of a charge in the caller's transaction (the transactional outbox: no change
 * without its event, no event without its change), with a pending delivery for every endpoint of
 * the account and mode that takes it. The body is stored as served, so every reader sends the same bytes.
 */
export async function recordEvent(db: Db, deps: Pick<ServiceDeps, 'ids' | 'clock'>, input: EventInput): Promise<Event> {
  const { event, row } = newEvent(deps, input);
  await writeWithEvent(db, null, row, deps.clock.now(), overviewOf(input));
  return event;
}

/**
 * The change and its event as one write (one statement on PostgreSQL, needing no transaction of
 * its own). Answers false, having written nothing, when the change wrote nothing (a lost race).
 */
export function recordChange(db: Db, deps: Pick<ServiceDeps, 'ids' | 'clock'>, change: BoundStatement, input: EventInput): Promise<boolean> {
  return writeWithEvent(db, change, newEvent(deps, input).row, deps.clock.now(), overviewOf(input));
}

/** The event's JSON as it was recorded. */
export async function retrieveEvent(db: Db, owner: Owner, id: string): Promise<string> {
  const event = await findEvent(db, owner, id);
  if (!event) throw new PayframeError('RESOURCE_MISSING', 'No such event.', { parameter: 'id' });
  return event.body;
}
