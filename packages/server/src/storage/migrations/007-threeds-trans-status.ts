import { type Kysely, sql } from 'kysely';

/**
 * 3-D Secure scenarios (docs/three-d-secure.md): each charge keeps how its issuer runs 3-D Secure,
 * the issuer's answer (`transStatus`) once settled, and the wrong one-time codes so far — in the
 * row, so that every instance counts the same tries under conditional updates.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('charges').addColumn('threeds_scenario', 'text').execute();
  await db.schema.alterTable('charges').addColumn('threeds_trans_status', 'text').execute();
  await db.schema
    .alterTable('charges')
    .addColumn('threeds_code_failures', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  // Charges settled on the two-button page before this migration: its success is Y, its failure N.
  await sql`update charges set threeds_trans_status = case threeds_status when 'CHARGEABLE' then 'Y' else 'N' end
    where threeds_status in ('CHARGEABLE', 'FAILED')`.execute(db);
}
