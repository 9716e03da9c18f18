import { sql } from 'kysely';
import type { Db } from '../db.ts';

/** Moves the account's test clock forward; a single UPDATE, so concurrent advances add up. Answers the new offset. */
export async function advanceTestClockOffset(db: Db, accountId: string, seconds: number): Promise<number> {
  const { test_clock_offset } = await db
    .updateTable('accounts')
    .set({ test_clock_offset: sql<number>`test_clock_offset + ${seconds}` })
    .where('id', '=', accountId)
    .returning('test_clock_offset')
    .executeTakeFirstOrThrow();
  return test_clock_offset;
}
