import type { Db } from '../db.ts';
import { portable, runStatement } from '../statements.ts';

const INSERT_RETURN = portable(`insert into threeds_returns (charge_id, returned_at) values ($1, $2) on conflict (charge_id) do nothing returning 1`);

/** Records that the charge's shopper was sent back to the merchant; answers false when that was already done. */
export async function insertThreeDSReturn(db: Db, chargeId: string, now: number): Promise<boolean> {
  return (await runStatement(db, INSERT_RETURN, [chargeId, now])).length === 1;
}
