import type { TestClock } from '@payframe/contract';
import { accountNow, epochSeconds } from '../domain/clock.ts';
import { accountTestClockOffset } from '../storage/repositories/accounts.ts';
import { advanceTestClockOffset } from '../storage/repositories/test-clocks.ts';
import type { Db } from './context.ts';

/** Moves the account's test clock forward; concurrent advances add up. */
export async function advanceTestClock(db: Db, accountId: string, seconds: number, realNow: number): Promise<TestClock> {
  return testClockView(realNow, await advanceTestClockOffset(db, accountId, seconds));
}

export function testClockView(realNow: number, offsetSeconds: number): TestClock {
  return { type: 'test_clock', now: epochSeconds(accountNow(realNow, 'test', offsetSeconds)), offset: offsetSeconds };
}

/** The account's test clock as stored now, rather than as cached with the caller's key. */
export async function storedTestClock(db: Db, accountId: string, realNow: number): Promise<TestClock> {
  return testClockView(realNow, await accountTestClockOffset(db, accountId));
}
