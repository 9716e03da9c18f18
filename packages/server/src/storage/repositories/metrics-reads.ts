import type { Db } from '../db.ts';

/** Pending deliveries, counted on the partial index that holds only them (migration 013). */
export async function pendingDeliveryCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** When each background job is next due (a small table: one row a job). */
export function jobSchedules(db: Db): Promise<{ name: string; next_run_at: number }[]> {
  return db.selectFrom('background_jobs').select(['name', 'next_run_at']).execute();
}
