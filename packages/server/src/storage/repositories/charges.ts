import type { Mode } from '@payframe/contract';
import type { Db } from '../db.ts';
import type { ChargesTable } from '../schema.ts';
import { type Owner, ownedBy } from './owned.ts';

export async function insertCharge(db: Db, charge: ChargesTable): Promise<void> {
  await db.insertInto('charges').values(charge).execute();
}

export function findCharge(db: Db, owner: Owner, id: string): Promise<ChargesTable | undefined> {
  return db
    .selectFrom('charges')
    .selectAll()
    .where((eb) => eb.and(ownedBy(owner, id)))
    .executeTakeFirst();
}

/**
 * Writes the charge's lifecycle fields only if nobody else changed it since it was read at
 * `readVersion`: answers whether this write won.
 */
export async function updateChargeIfUnchanged(db: Db, next: ChargesTable, readVersion: number): Promise<boolean> {
  const { status, threeds_status, threeds_trans_status, threeds_code_failures, reason, amount_refunded, fees, updated_at, version } = next;
  const update = await db
    .updateTable('charges')
    .set({ status, threeds_status, threeds_trans_status, threeds_code_failures, reason, amount_refunded, fees, updated_at, version })
    .where('id', '=', next.id)
    .where('version', '=', readVersion)
    .executeTakeFirst();
  return update.numUpdatedRows === 1n;
}

export type ChargeAccount = { accountId: string; mode: Mode; merchantName: string; testClockOffset: number };

/** Whose charge this is, found by id alone (the hosted 3-D Secure page has no API key). */
export async function findChargeAccount(db: Db, id: string): Promise<ChargeAccount | undefined> {
  const row = await db
    .selectFrom('charges')
    .innerJoin('accounts', 'accounts.id', 'charges.account_id')
    .select(['charges.account_id as accountId', 'charges.mode as mode', 'accounts.name as name', 'accounts.display_name as displayName', 'accounts.test_clock_offset as offset'])
    .where('charges.id', '=', id)
    .executeTakeFirst();
  return row && { accountId: row.accountId, mode: row.mode, merchantName: row.displayName ?? row.name, testClockOffset: Number(row.offset) };
}
