import type { Mode } from '@payframe/contract';
import { signWebhook, type WebhookHeaders } from '@payframe/contract/webhook-signing';
import { epochSeconds } from '../domain/clock.ts';
import { retryAt } from '../domain/webhook-retry.ts';
import { unseal } from '../security/vault.ts';
import type { Store } from '../storage/db.ts';
import { finishAttempt, insertStartedAttempts } from '../storage/repositories/webhook-attempts.ts';
import { claimDueDeliveries, type DeliveryOutcome, deliveryMessages, finishDelivery } from '../storage/repositories/webhook-deliveries.ts';

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

export type Claim = { now: number; leaseMs: number; runner: string; limit: number; secretKey: Buffer };

/**
 * Leases due deliveries to this runner and writes each attempt's row, in one durable transaction:
 * nothing is sent before the event, its delivery and the lease are committed.
 */
export async function claimAttempts(store: Store, claim: Claim): Promise<Attempt[]> {
  const { now, leaseMs, runner, limit, secretKey } = claim;
  return store.transaction(async (tx) => {
    const claimed = await claimDueDeliveries(tx, { now, leaseUntil: now + leaseMs, runner, limit });
    if (claimed.length === 0) return [];
    await insertStartedAttempts(tx, claimed.map((row) => ({ delivery_id: row.id, attempt: row.attempts, started_at: now })));
    const messages = new Map((await deliveryMessages(tx, claimed.map((row) => row.id))).map((message) => [message.id, message]));
    return claimed.flatMap((row) => {
      const message = messages.get(row.id);
      if (!message) return [];
      let headers: WebhookHeaders | null = null;
      try {
        const secret = unseal(secretKey, message.endpoint_id, message.secret_sealed);
        headers = signWebhook(secret, { id: message.event_id, timestamp: epochSeconds(now), body: message.body });
      } catch {
        // Sealed under another master key: recorded as a failed attempt, never sent unsigned.
      }
      return [{ deliveryId: row.id, attempt: row.attempts, url: message.url, mode: message.mode, body: message.body, headers, startedAt: now }];
    });
  });
}

export type AttemptResult = { statusCode: number | null; error: string | null; finishedAt: number; stopped: boolean };

/** A 2xx delivers; anything else is retried on the schedule, then fails. A stop hands the delivery back at once. */
export function outcomeOf(attempt: Attempt, result: AttemptResult, schedule: readonly number[], random: () => number): DeliveryOutcome {
  const { statusCode, finishedAt } = result;
  const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
  if (delivered) return { status: 'succeeded', lastStatusCode: statusCode, lastError: null, nextAttemptAt: null };
  const lastError = result.error ?? (statusCode !== null && statusCode >= 300 && statusCode < 400 ? `HTTP ${statusCode}: redirects are not followed` : `HTTP ${statusCode}`);
  if (result.stopped) return { status: 'pending', lastStatusCode: statusCode, lastError, nextAttemptAt: finishedAt };
  const next = retryAt(schedule, attempt.attempt, finishedAt, random);
  return { status: next === null ? 'failed' : 'pending', lastStatusCode: statusCode, lastError, nextAttemptAt: next };
}

export type FinishedAttempt = { attempt: Attempt; result: AttemptResult; outcome: DeliveryOutcome };

/**
 * Writes finished attempts' outcomes in one transaction and, for each delivery still this
 * runner's attempt, the delivery's: one commit for a batch, not one per webhook.
 */
export async function recordAttempts(store: Store, runner: string, finished: FinishedAttempt[]): Promise<void> {
  await store.transaction(async (tx) => {
    for (const { attempt, result, outcome } of finished) {
      await finishAttempt(tx, {
        delivery_id: attempt.deliveryId,
        attempt: attempt.attempt,
        status_code: result.statusCode,
        error: outcome.lastError,
        duration_ms: Math.max(0, result.finishedAt - attempt.startedAt),
      });
      await finishDelivery(tx, { id: attempt.deliveryId, runner, attempt: attempt.attempt }, outcome);
    }
  });
}
