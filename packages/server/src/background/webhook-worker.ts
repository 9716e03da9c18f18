import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.ts';
import { WEBHOOK_TIMEOUT_MS, webhookLeaseMs } from '../domain/webhook-retry.ts';
import { type Attempt, claimAttempts, type FinishedAttempt, outcomeOf, recordAttempts } from '../services/webhook-attempts.ts';
import { webhookTargetsCache } from '../services/webhook-targets-cache.ts';
import type { Store } from '../storage/db.ts';
import { anyDeliveryDue } from '../storage/repositories/webhook-deliveries.ts';
import { type WebhookSender, webhookSender } from './webhook-sender.ts';

/** Well under the 2 s within which a committed event's first attempt must start. */
const POLL_MS = 250;
/**
 * While attempts finish, passes follow each other this far apart rather than one per attempt: each
 * records every outcome since the last and claims as many deliveries in one commit.
 */
const PASS_GAP_MS = 20;
/** Attempts this instance runs at once. */
const MAX_IN_FLIGHT = 128;
/**
 * In flight at once across instances: per endpoint, and per account (a quarter of one instance's
 * slots), so that an account whose receivers hang never holds the slots another account's first
 * attempt needs.
 */
const PER_ENDPOINT = 4;
const PER_ACCOUNT = 32;

export type WebhookWorkerOptions = {
  store: Store;
  /** Opens endpoints' sealed signing secrets. */
  secretKey: Buffer;
  /** Seconds to wait after each failed attempt (domain/webhook-retry.ts). */
  schedule: readonly number[];
  /** How long a receiver has to answer an attempt; a claimed delivery's lease is twice it. */
  timeoutMs?: number;
  /** Names this instance in `leased_by`. */
  runner: string;
  clock: Clock;
  logger: Logger;
  random?: () => number;
  sender?: WebhookSender;
  /** Told each attempt's outcome, for the metrics. */
  onAttempt?: (outcome: 'succeeded' | 'retrying' | 'failed') => void;
};

export type WebhookWorker = { stop(): Promise<void> };

/**
 * Runs in every instance (docs/webhooks.md, "Delivery and retries"): in passes, each one durable
 * transaction that records the outcomes of the attempts finished since the last pass and leases
 * the due deliveries there are free slots for; then POSTs each signed. When idle it polls with one
 * indexed probe. Requests only insert deliveries; nothing here runs on a request's path. A crash
 * loses nothing: a leased delivery whose instance died is due again when its lease ends.
 */
export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { store, schedule, runner, clock, logger } = options;
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const leaseMs = webhookLeaseMs(timeoutMs);
  const sender = options.sender ?? webhookSender({ timeoutMs });
  const targetsOf = webhookTargetsCache(options.secretKey);
  const inFlight = new Set<Promise<void>>();
  let finished: FinishedAttempt[] = [];
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let pass: Promise<void> | undefined;

  /** Answers whether more is waiting: outcomes to record, or as many deliveries claimed as there were slots. */
  async function runPass(): Promise<boolean> {
    const outcomes = finished;
    finished = [];
    const limit = stopping ? 0 : MAX_IN_FLIGHT - inFlight.size;
    const now = clock.now();
    if (outcomes.length === 0 && (limit === 0 || !(await store.read((db) => anyDeliveryDue(db, now))))) return false;
    let attempts: Attempt[];
    try {
      attempts = await store.transaction(async (tx) => {
        await recordAttempts(tx, runner, outcomes);
        return limit > 0 ? claimAttempts(tx, { now, leaseMs, runner, limit, perEndpoint: PER_ENDPOINT, perAccount: PER_ACCOUNT }, targetsOf) : [];
      });
    } catch (error) {
      logger.warn({ err: error, attempts: outcomes.length }, 'webhook attempts not recorded; their deliveries are retried when their leases end');
      return false;
    }
    for (const attempt of attempts) track(attempt);
    return limit > 0 && attempts.length === limit;
  }

  function track(attempt: Attempt): void {
    const running = send(attempt).then((entry) => {
      finished.push(entry);
      inFlight.delete(running);
      wake(PASS_GAP_MS);
    });
    inFlight.add(running);
  }

  async function send(attempt: Attempt): Promise<FinishedAttempt> {
    const sent = attempt.headers
      ? await sender.send({ url: attempt.url, mode: attempt.mode }, attempt.headers, attempt.body)
      : { statusCode: null, error: 'the signing secret could not be opened with this server’s master key' };
    const result = { ...sent, finishedAt: clock.now(), stopped: stopping && sent.statusCode === null };
    const outcome = outcomeOf(attempt, result, schedule, random);
    // An attempt cut by a stop is handed back, not tried: it is no outcome.
    if (!result.stopped) options.onAttempt?.(outcome.status === 'pending' ? 'retrying' : outcome.status);
    return { attempt, result, outcome };
  }

  /** The next pass in `delay` ms, unless one is due sooner or running (it schedules the next when it ends). */
  function wake(delay: number): void {
    if (stopping || pass) return;
    const at = performance.now() + delay;
    if (timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(startPass, delay);
  }

  function startPass(): void {
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
    pass = runPass()
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'webhook deliveries could not be claimed; trying again');
        return false;
      })
      .then((more) => {
        pass = undefined;
        wake(more || finished.length > 0 ? PASS_GAP_MS : POLL_MS);
      });
  }
  startPass();

  return {
    /** Attempts in flight are cut and handed back (due at once), so a restart does not wait out their lease. */
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await pass;
      sender.close();
      await Promise.all(inFlight);
      if (finished.length === 0) return;
      const outcomes = finished;
      finished = [];
      await store
        .transaction((tx) => recordAttempts(tx, runner, outcomes))
        .catch((error: unknown) =>
          logger.warn({ err: error, attempts: outcomes.length }, 'webhook attempts not recorded; their deliveries are retried when their leases end'),
        );
    },
  };
}
