import type { Db } from '../db.ts';
import type { WebhookAttemptsTable } from '../schema.ts';

/** What an attempt's row says until its outcome is written: true only if its instance stopped mid-attempt. */
const ATTEMPT_INTERRUPTED = 'no outcome: the instance making this attempt stopped';

/** Written when attempts are claimed, so that one cut short by a crash still shows. */
export async function insertStartedAttempts(db: Db, attempts: Array<Pick<WebhookAttemptsTable, 'delivery_id' | 'attempt' | 'started_at'>>): Promise<void> {
  if (attempts.length === 0) return;
  await db
    .insertInto('webhook_attempts')
    .values(attempts.map((attempt) => ({ ...attempt, status_code: null, error: ATTEMPT_INTERRUPTED, duration_ms: 0 })))
    .execute();
}

export async function finishAttempt(db: Db, attempt: Pick<WebhookAttemptsTable, 'delivery_id' | 'attempt' | 'status_code' | 'error' | 'duration_ms'>): Promise<void> {
  await db
    .updateTable('webhook_attempts')
    .set({ status_code: attempt.status_code, error: attempt.error, duration_ms: attempt.duration_ms })
    .where('delivery_id', '=', attempt.delivery_id)
    .where('attempt', '=', attempt.attempt)
    .execute();
}
