import type { Mode } from '@payframe/contract';
import { signWebhook, type WebhookHeaders } from '@payframe/contract/webhook-signing';
import { epochSeconds } from '../domain/clock.ts';
import { retryAt } from '../domain/webhook-retry.ts';
import type { Db } from '../storage/db.ts';
import { finishAttempts, insertStartedAttempts } from '../storage/repositories/webhook-attempts.ts';
import { type ClaimLimits, claimDueDeliveries, type DeliveryOutcome, finishDeliveries } from '../storage/repositories/webhook-deliveries.ts';
import type { WebhookTargets } from './webhook-targets-cache.ts';

/** One claimed attempt: what to POST where, signed for this attempt's real time. */
export type Attempt = {
  deliveryId: string;
  /** 1-based; also the lease's fencing token. */
  attempt: number;
  url: string;
  mode: Mode;
  body: string;
  headers: WebhookHeaders | null;
  startedAt: number;
};

export type Claim = { now: number; leaseMs: number; runner: string } & ClaimLimits;

/**
 * Leases due deliveries to this runner and writes each attempt's row, in the caller's transaction,
 * which must be durable before anything is sent: nothing goes out before the event, its delivery
 * and the lease are committed.
 */
export async function claimAttempts(tx: Db, claim: Claim, targetsOf: WebhookTargets): Promise<Attempt[]> {
  const { now, leaseMs, ...rest } = claim;
  const claimed = await claimDueDeliveries(tx, { now, leaseUntil: now + leaseMs, ...rest });
  if (claimed.length === 0) return [];
  await insertStartedAttempts(
    tx,
    claimed.map((row) => ({ delivery_id: row.id, attempt: row.attempts, started_at: now })),
  );
  const targets = await targetsOf(
    tx,
    claimed.map((row) => row.endpoint_id),
  );
  return claimed.flatMap((row) => {
    const { body } = row;
    const target = targets.get(row.endpoint_id);
    if (body === null || !target) return [];
    const headers = target.secret === null ? null : signWebhook(target.secret, { id: row.event_id, timestamp: epochSeconds(now), body });
    return [{ deliveryId: row.id, attempt: row.attempts, url: target.url, mode: target.mode, body, headers, startedAt: now }];
  });
}

export type AttemptResult = { statusCode: number | null; error: string | null; finishedAt: number; stopped: boolean };

/** A 2xx delivers; anything else is retried on the schedule, then fails. A stop hands the delivery back at once. */
export function outcomeOf(attempt: Attempt, result: AttemptResult, schedule: readonly number[], random: () => number): DeliveryOutcome {
  const { statusCode, finishedAt } = result;
  const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
  if (delivered) return { status: 'succeeded', lastStatusCode: statusCode, lastError: null, nextAttemptAt: null };
  const lastError =
    result.error ?? (statusCode !== null && statusCode >= 300 && statusCode < 400 ? `HTTP ${statusCode}: redirects are not followed` : `HTTP ${statusCode}`);
  if (result.stopped) return { status: 'pending', lastStatusCode: statusCode, lastError, nextAttemptAt: finishedAt };
  const next = retryAt(schedule, attempt.attempt, finishedAt, random);
  return { status: next === null ? 'failed' : 'pending', lastStatusCode: statusCode, lastError, nextAttemptAt: next };
}

export type FinishedAttempt = { attempt: Attempt; result: AttemptResult; outcome: DeliveryOutcome };

/**
 * Writes finished attempts' outcomes and, for each delivery still this runner's attempt, the
 * delivery's: two statements for the whole pass.
 */
export async function recordAttempts(tx: Db, runner: string, finished: FinishedAttempt[]): Promise<void> {
  await finishAttempts(
    tx,
    finished.map(({ attempt, result, outcome }) => ({
      delivery_id: attempt.deliveryId,
      attempt: attempt.attempt,
      status_code: result.statusCode,
      error: outcome.lastError,
      duration_ms: Math.max(0, result.finishedAt - attempt.startedAt),
    })),
  );
  await finishDeliveries(
    tx,
    runner,
    finished.map(({ attempt, outcome }) => ({ id: attempt.deliveryId, attempt: attempt.attempt, outcome })),
  );
}
