import { type Kysely, sql } from 'kysely';

/**
 * Partial capture and metadata (docs/api.md): a charge keeps what was captured (0 until then) and
 * its metadata, a refund its metadata, as JSON text (`{}` when none). Charges captured before this
 * migration captured their whole amount: they are the ones with fees.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('charges')
    .addColumn('amount_captured', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('charges')
    .addColumn('metadata', 'text', (col) => col.notNull().defaultTo('{}'))
    .execute();
  await db.schema
    .alterTable('refunds')
    .addColumn('metadata', 'text', (col) => col.notNull().defaultTo('{}'))
    .execute();
  await sql`update charges set amount_captured = amount where fees is not null`.execute(db);
}
