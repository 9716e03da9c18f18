/**
 * When a failed webhook delivery is tried again (docs/webhooks.md, "Delivery and retries"): seconds after each
 * failed attempt, about three days in all. A schedule of N entries allows N + 1 attempts.
 */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [60, 300, 1_800, 7_200, 21_600, 43_200, 86_400, 86_400];

/**
 * A receiver has this long to answer an attempt (docs/webhooks.md, "Delivery and retries"):
 * PAYFRAME_WEBHOOK_TIMEOUT_MS may shorten it, never lengthen it.
 */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** A claimed delivery stays its instance's for twice the attempt timeout: longer than any attempt, so two never overlap. */
export function webhookLeaseMs(timeoutMs: number): number {
  return 2 * timeoutMs;
}

/** ±10 %: receivers that fail together are not all retried at the same instant. */
const JITTER = 0.1;

/**
 * After attempt number `attempt` (1-based) failed at `now` (real epoch ms): when to try again, or
 * null once the schedule is spent and the delivery has failed. `random` returns [0, 1).
 */
export function retryAt(schedule: readonly number[], attempt: number, now: number, random: () => number): number | null {
  const seconds = schedule[attempt - 1];
  if (seconds === undefined) return null;
  return now + Math.round(seconds * 1000 * (1 + JITTER * (2 * random() - 1)));
}
