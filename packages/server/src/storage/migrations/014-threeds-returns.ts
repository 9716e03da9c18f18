import type { Kysely } from 'kysely';

/**
 * The bank-app card's waiting page sends the shopper back to the merchant once (docs/three-d-secure.md): a
 * row per charge whose shopper was sent on, inserted where absent, so that of concurrent refreshes
 * on any instances exactly one answers the 303 and the link is spent for the rest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('threeds_returns')
    .addColumn('charge_id', 'text', (col) => col.primaryKey().references('charges.id'))
    .addColumn('returned_at', 'bigint', (col) => col.notNull())
    .execute();
}
