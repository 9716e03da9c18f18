import { type TestClock } from '@payframe/contract';
import { sql } from 'kysely';
import { accountNow, epochSeconds } from '../domain/clock.ts';
import type { Db } from './context.ts';

/** Moves the account's test clock forward; a single UPDATE, so concurrent advances add up. */
export async function advanceTestClock(db: Db, accountId: string, seconds: number, realNow: number): Promise<TestClock> {
  const { test_clock_offset } = await db
    .updateTable('accounts')
    .set({ test_clock_offset: sql<number>`test_clock_offset + ${seconds}` })
    .where('id', '=', accountId)
    .returning('test_clock_offset')
    .executeTakeFirstOrThrow();
  return testClockView(realNow, test_clock_offset);
}

export function testClockView(realNow: number, offsetSeconds: number): TestClock {
  return { type: 'test_clock', now: epochSeconds(accountNow(realNow, 'test', offsetSeconds)), offset: offsetSeconds };
}
