import { type Kysely, sql } from 'kysely';
import type { ChargesTable, Database } from '../schema.ts';

/**
 * How far the furthest test clock runs ahead of real time, in milliseconds (never behind): the
 * sweepers' index ranges reach that far past their real-time cutoff, and each row is then judged on
 * its own account's clock.
 */
async function furthestClockAheadMs(db: Kysely<Database>): Promise<number> {
  const { maxOffset } = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.coalesce(eb.fn.max('test_clock_offset'), sql<number>`0`).as('maxOffset'))
    .executeTakeFirstOrThrow();
  return Math.max(0, Number(maxOffset)) * 1000;
}

/**
 * Erases the sealed number and CVC of every unused token older than `lifetimeMs` on its own
 * account's clock (test-mode tokens follow the account's test clock). Each row's update is
 * conditional on the token being unused, so a run racing a charge or another run changes nothing twice.
 * A pass reads the sealed tokens old enough on the furthest clock, not every sealed one: a burst of
 * tokens (a card tester's) stays sealed for a lifetime, and each pass would read them all.
 */
export async function eraseExpiredTokenSecrets(db: Kysely<Database>, realNow: number, lifetimeMs: number): Promise<number> {
  const clockOffsetMs = sql<number>`coalesce((select accounts.test_clock_offset from accounts where accounts.id = tokens.account_id and tokens.mode = 'test'), 0) * 1000`;
  const aheadMs = await furthestClockAheadMs(db);
  const result = await db
    .updateTable('tokens')
    .set({ card_secret: null })
    .where('used_at', 'is', null)
    .where('card_secret', 'is not', null)
    .where('created_at', '<', realNow - lifetimeMs + aheadMs)
    .where(sql<boolean>`tokens.created_at + ${lifetimeMs} < ${realNow} + ${clockOffsetMs}`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes idempotency records made before `cutoff`: they can no longer be replayed. */
export async function deleteIdempotencyRecordsBefore(db: Kysely<Database>, cutoff: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Up to `limit` charges still recorded PENDING whose deadline has passed on their own account's
 * clock, oldest first, with that clock's offset. `expiredIfCreatedBy` is the real-time cutoff;
 * a test-mode charge's cutoff moves with its account's test clock.
 */
export async function pendingPastDeadline(
  db: Kysely<Database>,
  expiredIfCreatedBy: number,
  limit: number,
): Promise<Array<ChargesTable & { clock_offset: number }>> {
  const offsetMs = sql<number>`(case when charges.mode = 'test' then accounts.test_clock_offset else 0 end) * 1000`;
  const aheadMs = await furthestClockAheadMs(db);
  const rows = await db
    .selectFrom('charges')
    .innerJoin('accounts', 'accounts.id', 'charges.account_id')
    .selectAll('charges')
    .select(sql<number>`case when charges.mode = 'test' then accounts.test_clock_offset else 0 end`.as('clock_offset'))
    .where('charges.status', '=', 'PENDING')
    // The index range: no account's clock runs further ahead than the furthest one.
    .where('charges.created_at', '<=', expiredIfCreatedBy + aheadMs)
    .where(sql<boolean>`charges.created_at <= ${expiredIfCreatedBy} + ${offsetMs}`)
    .orderBy('charges.created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, clock_offset: Number(row.clock_offset) }));
}
