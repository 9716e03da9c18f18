import type { Db } from '../db.ts';

export type AccountNames = { id: string; name: string; displayName: string | null };

export async function findAccountByName(db: Db, name: string): Promise<AccountNames | undefined> {
  const row = await db.selectFrom('accounts').select(['id', 'name', 'display_name']).where('name', '=', name).executeTakeFirst();
  return row && { id: row.id, name: row.name, displayName: row.display_name };
}

export async function findAccount(db: Db, id: string): Promise<AccountNames | undefined> {
  const row = await db.selectFrom('accounts').select(['id', 'name', 'display_name']).where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, name: row.name, displayName: row.display_name };
}

/** Sets the name shoppers see; the CLI's handle (`name`) stays as it is. */
export async function setDisplayName(db: Db, id: string, displayName: string): Promise<void> {
  await db.updateTable('accounts').set({ display_name: displayName }).where('id', '=', id).execute();
}

export async function accountTestClockOffset(db: Db, id: string): Promise<number> {
  const row = await db.selectFrom('accounts').select('test_clock_offset').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.test_clock_offset);
}
