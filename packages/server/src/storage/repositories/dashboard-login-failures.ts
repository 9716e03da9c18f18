import type { Db } from '../db.ts';

export async function insertLoginFailures(db: Db, rows: Array<{ id: string; key: string; failed_at: number }>): Promise<void> {
  await db.insertInto('dashboard_login_failures').values(rows).execute();
}

/**
 * When the `nth` newest failure under `key` since `since` happened, or null when there are fewer:
 * with a limit of 5, sign-ins are refused until the 5th newest failure leaves the window.
 */
export async function nthNewestFailure(db: Db, key: string, since: number, nth: number): Promise<number | null> {
  const row = await db
    .selectFrom('dashboard_login_failures')
    .select('failed_at')
    .where('key', '=', key)
    .where('failed_at', '>', since)
    .orderBy('failed_at', 'desc')
    .limit(1)
    .offset(nth - 1)
    .executeTakeFirst();
  return row ? Number(row.failed_at) : null;
}

export async function deleteFailuresBefore(db: Db, keys: string[], before: number): Promise<void> {
  await db.deleteFrom('dashboard_login_failures').where('key', 'in', keys).where('failed_at', '<=', before).execute();
}
