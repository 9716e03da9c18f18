import type { WebhookDelivery, WebhookDeliveryList } from '@payframe/contract';
import { epochSeconds } from '../domain/clock.ts';
import type { WebhookDeliveriesTable } from '../storage/schema.ts';

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
