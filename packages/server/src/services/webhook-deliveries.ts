import type { WebhookDelivery, WebhookDeliveryList } from '@payframe/contract';
import { epochSeconds } from '../domain/clock.ts';
import { insertDeliveries } from '../storage/repositories/webhook-deliveries.ts';
import type { Owner } from '../storage/repositories/owned.ts';
import type { WebhookDeliveriesTable } from '../storage/schema.ts';
import type { Db, ServiceDeps } from './context.ts';

/**
 * Queues one pending delivery of the event to each endpoint, due now (real time: the worker's
 * clock, never the test clock). Requests only insert; the worker in every instance sends.
 */
export async function queueDeliveries(
  db: Db,
  deps: Pick<ServiceDeps, 'ids' | 'clock'>,
  owner: Owner,
  eventId: string,
  endpointIds: string[],
): Promise<WebhookDeliveriesTable[]> {
  const now = deps.clock.now();
  const rows = endpointIds.map(
    (endpointId): WebhookDeliveriesTable => ({
      id: deps.ids.prefixed('whd'),
      account_id: owner.accountId,
      mode: owner.mode,
      endpoint_id: endpointId,
      event_id: eventId,
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_error: null,
      next_attempt_at: now,
      lease_until: null,
      leased_by: null,
      created_at: now,
    }),
  );
  await insertDeliveries(db, rows);
  return rows;
}

export function deliveryView(row: WebhookDeliveriesTable): WebhookDelivery {
  return {
    type: 'webhook_delivery',
    endpoint: row.endpoint_id,
    event: row.event_id,
    status: row.status,
    attempts: row.attempts,
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    next_attempt: row.status === 'pending' && row.next_attempt_at !== null ? epochSeconds(row.next_attempt_at) : null,
  };
}

export function deliveryList(eventId: string, rows: WebhookDeliveriesTable[], hasMore = false): WebhookDeliveryList {
  return { type: 'list', url: `/v2/events/${eventId}/deliveries`, has_more: hasMore, data: rows.map(deliveryView) };
}
