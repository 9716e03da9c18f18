import { PayframeError, type WebhookDeliveryList } from '@payframe/contract';
import { findEvent } from '../storage/repositories/events.ts';
import { deliveriesOfEvent, queueResend } from '../storage/repositories/webhook-deliveries.ts';
import { findEndpoint } from '../storage/repositories/webhook-endpoints.ts';
import type { Caller, Db, ServiceDeps } from './context.ts';
import { deliveryList } from './webhook-deliveries.ts';

/** An event's deliveries have no cursor of their own: the newest page, saying whether older ones exist. */
const DELIVERIES_PAGE = 100;

async function eventOf(db: Db, caller: Caller, id: string) {
  const event = await findEvent(db, caller, id);
  if (!event) throw new PayframeError('RESOURCE_MISSING', 'No such event.', { parameter: 'id' });
  return event;
}

export async function eventDeliveries(db: Db, caller: Caller, eventId: string): Promise<WebhookDeliveryList> {
  await eventOf(db, caller, eventId);
  const rows = await deliveriesOfEvent(db, caller, eventId, DELIVERIES_PAGE);
  return deliveryList(eventId, rows.slice(0, DELIVERIES_PAGE), rows.length > DELIVERIES_PAGE);
}

/**
 * Queues the event again, now: to one endpoint of the caller's, or to every endpoint that takes
 * the event's name. Answers the deliveries it queued.
 */
export async function resendEvent(db: Db, deps: ServiceDeps, caller: Caller, eventId: string, endpointId: string | undefined): Promise<WebhookDeliveryList> {
  const event = await eventOf(db, caller, eventId);
  const endpoint = endpointId === undefined ? undefined : await findEndpoint(db, caller, endpointId);
  if (endpointId !== undefined && !endpoint) {
    throw new PayframeError('RESOURCE_MISSING', 'No such webhook endpoint.', { parameter: 'endpoint', status: 400 });
  }
  // A disabled endpoint gets nothing new, a resend included: said here rather than queued silently as nothing.
  if (endpoint && endpoint.disabled_at !== null) {
    throw new PayframeError('PARAMETER_INVALID', 'Invalid parameter endpoint: that webhook endpoint is disabled; enable it to resend.', {
      parameter: 'endpoint',
    });
  }
  // Real time, never the test clock: the worker's clock.
  const queued = await queueResend(db, eventId, endpointId ?? null, deps.clock.now());
  // An endpoint receives only the names it takes, resent or not.
  if (endpointId !== undefined && queued.length === 0) {
    throw new PayframeError('PARAMETER_INVALID', `Invalid parameter endpoint: that webhook endpoint does not take ${event.name} events.`, {
      parameter: 'endpoint',
    });
  }
  return deliveryList(eventId, queued);
}
