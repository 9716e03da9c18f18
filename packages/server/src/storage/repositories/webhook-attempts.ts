import type { Db } from '../db.ts';
import type { WebhookAttemptsTable } from '../schema.ts';
import { portable, runStatement } from '../statements.ts';

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

const FINISH_ATTEMPT = portable('update webhook_attempts set status_code = $1, error = $2, duration_ms = $3 where delivery_id = $4 and attempt = $5');

/** Run for every webhook sent: its text is fixed once rather than built per attempt. */
export async function finishAttempt(db: Db, attempt: Pick<WebhookAttemptsTable, 'delivery_id' | 'attempt' | 'status_code' | 'error' | 'duration_ms'>): Promise<void> {
  await runStatement(db, FINISH_ATTEMPT, [attempt.status_code, attempt.error, attempt.duration_ms, attempt.delivery_id, attempt.attempt]);
}
