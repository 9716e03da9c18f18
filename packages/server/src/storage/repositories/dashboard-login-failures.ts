import type { Db } from '../db.ts';
import { serializeOn } from '../serialize.ts';

/**
 * A row is a sign-in attempt under one key (an e-mail or an address): recorded before its password
 * is checked, kept when the check fails, deleted when it succeeds.
 */
export type LoginAttempt = { id: string; key: string; failed_at: number };

export type Reservation = { reserved: true } | { reserved: false; reopensAt: number };

/**
 * Records the attempts under every key, unless one key already has `limit` attempts since `since`:
 * then nothing is recorded, and the answer says when that key's oldest counted attempt leaves the
 * window. Run in a transaction: the count and the insert are one step for concurrent attempts on
 * any instance (serialize.ts).
 */
export async function reserveLoginAttempts(tx: Db, attempts: LoginAttempt[], since: number, limit: number, windowMs: number): Promise<Reservation> {
  const keys = attempts.map((attempt) => attempt.key);
  await serializeOn(
    tx,
    keys.map((key) => `login:${key}`),
  );
  let reopensAt = 0;
  for (const key of keys) {
    const nth = await nthNewestAttempt(tx, key, since, limit);
    if (nth !== null) reopensAt = Math.max(reopensAt, nth + windowMs);
  }
  if (reopensAt > 0) return { reserved: false, reopensAt };
  await tx.deleteFrom('dashboard_login_failures').where('key', 'in', keys).where('failed_at', '<=', since).execute();
  await tx.insertInto('dashboard_login_failures').values(attempts).execute();
  return { reserved: true };
}

/** The `nth` newest attempt under `key` since `since`, or null when there are fewer. */
async function nthNewestAttempt(db: Db, key: string, since: number, nth: number): Promise<number | null> {
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

/** A checked attempt that succeeded is no failure: it stops counting. */
export async function deleteLoginAttempts(db: Db, ids: string[]): Promise<void> {
  await db.deleteFrom('dashboard_login_failures').where('id', 'in', ids).execute();
}
