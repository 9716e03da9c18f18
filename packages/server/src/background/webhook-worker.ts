import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.ts';
import type { Store } from '../storage/db.ts';
import { anyDeliveryDue } from '../storage/repositories/webhook-deliveries.ts';
import { type Attempt, claimAttempts, type FinishedAttempt, outcomeOf, recordAttempts } from '../services/webhook-attempts.ts';
import { type WebhookSender, webhookSender } from './webhook-sender.ts';

/** How long a claimed delivery is this instance's: longer than an attempt may take (10 s), so two never overlap. */
const LEASE_MS = 20_000;
/** Well under the 2 s within which a committed event's first attempt must start. */
const POLL_MS = 250;
const MAX_IN_FLIGHT = 64;
/** A claim is worth its transaction once this many slots are free. */
const CLAIM_BATCH = 16;

export type WebhookWorkerOptions = {
  store: Store;
  /** Opens endpoints' sealed signing secrets. */
  secretKey: Buffer;
  /** Seconds to wait after each failed attempt (domain/webhook-retry.ts). */
  schedule: readonly number[];
  /** Names this instance in `leased_by`. */
  runner: string;
  clock: Clock;
  logger: Logger;
  random?: () => number;
  sender?: WebhookSender;
};

export type WebhookWorker = { stop(): Promise<void> };

/**
 * Runs in every instance (docs/webhooks.md, "Delivery and retries"): polls for due deliveries with one indexed
 * probe, leases a batch in the database, POSTs each signed, and records every attempt. Requests
 * only insert deliveries; nothing here runs on a request's path. A crash loses nothing: a leased
 * delivery whose instance died is due again when its lease ends.
 */
export function startWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { store, secretKey, schedule, runner, clock, logger } = options;
  const random = options.random ?? Math.random;
  const sender = options.sender ?? webhookSender();
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  let again = false;
  // Outcomes wait here for the next write, which takes every one finished meanwhile in one commit.
  let unrecorded: Array<FinishedAttempt & { recorded(): void }> = [];
  let writing: Promise<void> | undefined;

  async function claimWhileDue(): Promise<void> {
    while (!stopping.signal.aborted && inFlight.size < MAX_IN_FLIGHT) {
      const now = clock.now();
      if (!(await store.read((db) => anyDeliveryDue(db, now)))) return;
      const limit = MAX_IN_FLIGHT - inFlight.size;
      const attempts = await claimAttempts(store, { now, leaseMs: LEASE_MS, runner, limit, secretKey });
      for (const attempt of attempts) track(attempt);
      if (attempts.length < limit) return;
    }
  }

  function track(attempt: Attempt): void {
    const running = run(attempt).finally(() => {
      inFlight.delete(running);
      // Freed slots are filled at once rather than at the next poll, so a backlog drains at the receivers' pace.
      if (inFlight.size <= MAX_IN_FLIGHT - CLAIM_BATCH) poke();
    });
    inFlight.add(running);
  }

  async function run(attempt: Attempt): Promise<void> {
    const sent = attempt.headers
      ? await sender.send({ url: attempt.url, mode: attempt.mode }, attempt.headers, attempt.body, stopping.signal)
      : { statusCode: null, error: 'the signing secret could not be opened with this server’s master key' };
    const result = { ...sent, finishedAt: clock.now(), stopped: stopping.signal.aborted && sent.statusCode === null };
    await new Promise<void>((recorded) => {
      unrecorded.push({ attempt, result, outcome: outcomeOf(attempt, result, schedule, random), recorded });
      writing ??= writeOutcomes();
    });
  }

  async function writeOutcomes(): Promise<void> {
    while (unrecorded.length > 0) {
      const batch = unrecorded;
      unrecorded = [];
      try {
        await recordAttempts(store, runner, batch);
      } catch (error) {
        logger.warn({ err: error, attempts: batch.length }, 'webhook attempts not recorded; their deliveries are retried when their leases end');
      }
      for (const entry of batch) entry.recorded();
    }
    writing = undefined;
  }

  function poke(): void {
    if (stopping.signal.aborted) return;
    if (pass) {
      again = true;
      return;
    }
    clearTimeout(timer);
    pass = claimWhileDue()
      .catch((error: unknown) => logger.warn({ err: error }, 'webhook deliveries could not be claimed; trying again'))
      .finally(() => {
        pass = undefined;
        if (stopping.signal.aborted) return;
        if (again) {
          again = false;
          poke();
        } else {
          timer = setTimeout(poke, POLL_MS);
        }
      });
  }
  poke();

  return {
    /** Attempts in flight are cut and handed back (due at once), so a restart does not wait out their lease. */
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await pass;
      await Promise.all(inFlight);
      sender.close();
    },
  };
}
