import { type Charge, type Event, type EventName, type Mode, PayframeError, type Refund } from '@payframe/contract';
import { epochSeconds } from '../domain/clock.ts';
import { findEvent, insertEvent } from '../storage/repositories/events.ts';
import type { Owner } from '../storage/repositories/owned.ts';
import { endpointsTaking } from '../storage/repositories/webhook-endpoints.ts';
import type { Db, ServiceDeps } from './context.ts';
import { queueDeliveries } from './webhook-deliveries.ts';

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
 * Records one change of a charge in the caller's transaction (the transactional outbox: no change
 * without its event, no event without its change), with a pending delivery for every endpoint of
 * the account and mode that takes it. The body is stored as served, so every reader sends the same bytes.
 */
export async function recordEvent(db: Db, deps: Pick<ServiceDeps, 'ids' | 'clock'>, input: EventInput): Promise<Event> {
  const { accountId, mode, name, at, charge, refund } = input;
  const event: Event = {
    type: 'event',
    id: deps.ids.prefixed('evt'),
    name,
    created: epochSeconds(at),
    mode,
    data: refund ? { object: charge, refund } : { object: charge },
  };
  await insertEvent(db, { id: event.id, account_id: accountId, mode, name, charge_id: charge.id, created_at: at, body: JSON.stringify(event) });
  const owner = { accountId, mode };
  await queueDeliveries(db, deps, owner, event.id, await endpointsTaking(db, owner, name));
  return event;
}

/** The event's JSON as it was recorded. */
export async function retrieveEvent(db: Db, owner: Owner, id: string): Promise<string> {
  const event = await findEvent(db, owner, id);
  if (!event) throw new PayframeError('RESOURCE_MISSING', 'No such event.', { parameter: 'id' });
  return event.body;
}
