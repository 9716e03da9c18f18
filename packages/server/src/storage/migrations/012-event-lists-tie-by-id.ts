import type { Kysely } from 'kysely';

/**
 * Event lists break ties within a millisecond by id, as every other list does (newest first:
 * creation time, then id), rather than by `seq`. The three list indexes end in `id` instead.
 * Ids made by one instance within one millisecond increase (ids.ts), so its events still list in
 * the order it recorded them. The live stream keeps reading by (txid, seq).
 */
const LIST_INDEXES: Record<string, string[]> = {
  events_newest: ['account_id', 'mode', 'created_at', 'id'],
  events_by_charge: ['account_id', 'mode', 'charge_id', 'created_at', 'id'],
  events_by_name: ['account_id', 'mode', 'name', 'created_at', 'id'],
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of Object.entries(LIST_INDEXES)) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('events').columns(columns).execute();
  }
}
