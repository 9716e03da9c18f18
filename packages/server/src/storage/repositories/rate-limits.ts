import { sql } from 'kysely';
import type { Db } from '../db.ts';

export type WindowCount = { count: number; windowStart: number };

/**
 * Adds `delta` requests to `key`'s fixed window, starting the window at `windowStart` if the stored
 * one has passed (or there is none). One statement: concurrent flushes on any instance add up, and
 * each gets back the shared total and the window it belongs to.
 */
export async function addRequests(db: Db, key: string, delta: number, windowStart: number, now: number, windowMs: number): Promise<WindowCount> {
  const expired = sql<boolean>`rate_limits.window_start + ${windowMs} <= ${now}`;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: delta, window_start: windowStart })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${expired} then ${delta} else rate_limits.count + ${delta} end`,
        window_start: sql<number>`case when ${expired} then ${windowStart} else rate_limits.window_start end`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  return { count: row.count, windowStart: Number(row.window_start) };
}

export async function deleteWindowsBefore(db: Db, before: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', before).execute();
}
