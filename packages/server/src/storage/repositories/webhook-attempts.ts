import type { Db } from '../db.ts';
import type { WebhookAttemptsTable } from '../schema.ts';
import { isPostgres, portable, prepared, runStatement, runText } from '../statements.ts';

/** What an attempt's row says until its outcome is written: true only if its instance stopped mid-attempt. */
const ATTEMPT_INTERRUPTED = 'no outcome: the instance making this attempt stopped';

const START_ATTEMPT = portable(
  'insert into webhook_attempts (delivery_id, attempt, started_at, status_code, error, duration_ms) values ($1, $2, $3, null, $4, 0)',
);

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

export type FinishedAttemptRow = Pick<WebhookAttemptsTable, 'delivery_id' | 'attempt' | 'status_code' | 'error' | 'duration_ms'>;

/** Each finished attempt by its key: on SQLite one JSON array of rows, on PostgreSQL one array per column. */
const FINISH_ATTEMPTS = {
  postgres: prepared(`update webhook_attempts a set status_code = f.status_code, error = f.error, duration_ms = f.duration_ms
    from unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::int[]) as f(delivery_id, attempt, status_code, error, duration_ms)
    where a.delivery_id = f.delivery_id and a.attempt = f.attempt`),
  sqlite: `update webhook_attempts set status_code = f.value ->> 2, error = f.value ->> 3, duration_ms = f.value ->> 4
    from json_each(?) as f where webhook_attempts.delivery_id = f.value ->> 0 and webhook_attempts.attempt = f.value ->> 1`,
};

/** Writes the outcomes of a pass's finished attempts in one statement, not one per attempt. */
export async function finishAttempts(db: Db, attempts: FinishedAttemptRow[]): Promise<void> {
  if (attempts.length === 0) return;
  if (isPostgres(db)) {
    const columns = (['delivery_id', 'attempt', 'status_code', 'error', 'duration_ms'] as const).map((column) => attempts.map((attempt) => attempt[column]));
    await runText(db, FINISH_ATTEMPTS.postgres, columns);
    return;
  }
  const rows = attempts.map((attempt) => [attempt.delivery_id, attempt.attempt, attempt.status_code, attempt.error, attempt.duration_ms]);
  await runText(db, FINISH_ATTEMPTS.sqlite, [JSON.stringify(rows)]);
}
