import type { Db } from '../db.ts';

/** Records that the charge's shopper was sent back to the merchant; answers false when that was already done. */
export async function insertThreeDSReturn(db: Db, chargeId: string, now: number): Promise<boolean> {
  const inserted = await db
    .insertInto('threeds_returns')
    .values({ charge_id: chargeId, returned_at: now })
    .onConflict((oc) => oc.column('charge_id').doNothing())
    .returning('charge_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
