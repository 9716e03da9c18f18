import type { Db } from '../db.ts';
import type { WebhookAttemptsTable } from '../schema.ts';
import { isPostgres, portable, runStatement } from '../statements.ts';

/** What an attempt's row says until its outcome is written: true only if its instance stopped mid-attempt. */
const ATTEMPT_INTERRUPTED = 'no outcome: the instance making this attempt stopped';

const START_ATTEMPT = portable('insert into webhook_attempts (delivery_id, attempt, started_at, status_code, error, duration_ms) values ($1, $2, $3, null, $4, 0)');

/**
 * Written when attempts are claimed, so that one cut short by a crash still shows. On SQLite a
 * prepared statement per row costs less than building one statement of many rows; on PostgreSQL
 * one statement saves the round trips.
 */
export async function insertStartedAttempts(db: Db, attempts: Array<Pick<WebhookAttemptsTable, 'delivery_id' | 'attempt' | 'started_at'>>): Promise<void> {
  if (attempts.length === 0) return;
  if (isPostgres(db)) {
    await db
      .insertInto('webhook_attempts')
      .values(attempts.map((attempt) => ({ ...attempt, status_code: null, error: ATTEMPT_INTERRUPTED, duration_ms: 0 })))
      .execute();
    return;
  }
  for (const attempt of attempts) await runStatement(db, START_ATTEMPT, [attempt.delivery_id, attempt.attempt, attempt.started_at, ATTEMPT_INTERRUPTED]);
}

const FINISH_ATTEMPT = portable('update webhook_attempts set status_code = $1, error = $2, duration_ms = $3 where delivery_id = $4 and attempt = $5');

/** Run for every webhook sent: its text is fixed once rather than built per attempt. */
export async function finishAttempt(db: Db, attempt: Pick<WebhookAttemptsTable, 'delivery_id' | 'attempt' | 'status_code' | 'error' | 'duration_ms'>): Promise<void> {
  await runStatement(db, FINISH_ATTEMPT, [attempt.status_code, attempt.error, attempt.duration_ms, attempt.delivery_id, attempt.attempt]);
}
