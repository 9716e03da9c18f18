import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.ts';

/**
 * Erases the sealed number and CVC of every unused token older than `lifetimeMs` on its own
 * account's clock (test-mode tokens follow the account's test clock). Each row's update is
 * conditional on the token being unused, so a run racing a charge or another run changes nothing twice.
 */
export async function eraseExpiredTokenSecrets(db: Kysely<Database>, realNow: number, lifetimeMs: number): Promise<number> {
  const clockOffsetMs = sql<number>`coalesce((select accounts.test_clock_offset from accounts where accounts.id = tokens.account_id and tokens.mode = 'test'), 0) * 1000`;
  const result = await db
    .updateTable('tokens')
    .set({ card_secret: null })
    .where('used_at', 'is', null)
    .where('card_secret', 'is not', null)
    .where(sql<boolean>`tokens.created_at + ${lifetimeMs} < ${realNow} + ${clockOffsetMs}`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes idempotency records made before `cutoff`: they can no longer be replayed. */
export async function deleteIdempotencyRecordsBefore(db: Kysely<Database>, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
