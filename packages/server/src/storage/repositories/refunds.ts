import type { Db } from '../db.ts';
import type { RefundsTable } from '../schema.ts';
import { type Owner, ownedBy } from './owned.ts';

export async function insertRefund(db: Db, refund: RefundsTable): Promise<void> {
  await db.insertInto('refunds').values(refund).execute();
}

export function findRefund(db: Db, owner: Owner, id: string): Promise<RefundsTable | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where((eb) => eb.and(ownedBy(owner, id)))
    .executeTakeFirst();
}
