import type { Kysely } from 'kysely';

/**
 * An endpoint can be disabled (docs/webhooks.md): while `disabled_at` is set, the fan-out queues it
 * no new deliveries. Existing endpoints stay enabled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('disabled_at', 'bigint').execute();
}
