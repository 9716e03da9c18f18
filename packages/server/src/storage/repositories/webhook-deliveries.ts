import type { Db } from '../db.ts';
import type { WebhookDeliveriesTable } from '../schema.ts';

/** Queues deliveries: the worker picks up `pending` rows whose `next_attempt_at` has come. */
export async function insertDeliveries(db: Db, deliveries: WebhookDeliveriesTable[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db.insertInto('webhook_deliveries').values(deliveries).execute();
}
