import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * Takes this run of the job if it is due: of all instances asking, the one whose conditional
 * update moves `next_run_at` forward runs it. Nothing is held in memory, so an instance that
 * dies mid-run only delays the job to its next period.
 */
export async function takeDueJobRun(db: Kysely<Database>, name: string, now: number, periodMs: number, runner: string): Promise<boolean> {
  await db
    .insertInto('background_jobs')
    .values({ name, next_run_at: now, last_runner: null })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const taken = await db
    .updateTable('background_jobs')
    .set({ next_run_at: now + periodMs, last_runner: runner })
    .where('name', '=', name)
    .where('next_run_at', '<=', now)
    .executeTakeFirst();
  return taken.numUpdatedRows === 1n;
}
