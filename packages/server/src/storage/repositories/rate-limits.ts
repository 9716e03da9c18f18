import { sql } from 'kysely';
import type { Db } from '../db.ts';

export type WindowCount = { count: number; windowStart: number };

/**
 * Counts one request against `key` in a fixed window, starting a new window once the old one has
 * passed. One statement: concurrent requests on any instance each see their own count.
 */
export async function countRequest(db: Db, key: string, now: number, windowMs: number): Promise<WindowCount> {
  const expired = sql<boolean>`rate_limits.window_start + ${windowMs} <= ${now}`;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: 1, window_start: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${expired} then 1 else rate_limits.count + 1 end`,
        window_start: sql<number>`case when ${expired} then ${now} else rate_limits.window_start end`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  return { count: row.count, windowStart: Number(row.window_start) };
}

export async function deleteWindowsBefore(db: Db, before: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', before).execute();
}
