import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.ts';
import type { ServiceDeps } from '../services/context.ts';
import type { Store } from '../storage/db.ts';
import { takeDueJobRun } from '../storage/repositories/background-jobs.ts';
import { isServiceUnavailable } from '../storage/unavailable.ts';
import { deleteIdempotencyRecords } from './jobs/delete-idempotency-records.ts';
import { deleteRequestLog } from './jobs/delete-request-log.ts';
import { eraseExpiredTokens } from './jobs/erase-expired-tokens.ts';
import { expireCharges } from './jobs/expire-charges.ts';
import type { BackgroundJob } from './jobs/job.ts';

export const SWEEPER_JOBS: BackgroundJob[] = [eraseExpiredTokens, deleteIdempotencyRecords, expireCharges, deleteRequestLog];

export type SweeperOptions = {
  store: Store;
  jobs: BackgroundJob[];
  /** How often each instance looks for due jobs, and the least time between two runs of a job. */
  periodMs: number;
  /** Names this instance in the jobs table. */
  runner: string;
  clock: Clock;
  /** What jobs that write through services need (ids, views of charges). */
  services: ServiceDeps;
  logger: Logger;
};

export type Sweeper = { stop(): Promise<void> };

/**
 * Runs in every instance. Each period it asks the database, job by job, whether this instance
 * takes the run (storage/repositories/background-jobs.ts); the jobs themselves are safe to run
 * twice, so a slow run overlapping the next one does no harm.
 */
export function startSweeper(options: SweeperOptions): Sweeper {
  const { store, jobs, periodMs, runner, clock, services, logger } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  async function runDueJobs(): Promise<void> {
    for (const job of jobs) {
      if (stopped) return;
      try {
        const now = clock.now();
        const taken = await store.transaction((tx) => takeDueJobRun(tx, job.name, now, periodMs, runner));
        if (!taken) continue;
        const changed = await store.transaction((tx) => job.run(tx, now, services));
        if (changed > 0) logger.info({ job: job.name, changed }, 'background job done');
      } catch (error) {
        if (isServiceUnavailable(error)) {
          // On SQLite each job's attempt would wait out the busy timeout on the main thread, one
          // after another, holding every request back: the round ends at the first.
          logger.warn({ err: error, job: job.name }, 'background job failed: the database is unavailable; this and the remaining jobs run again next period');
          return;
        }
        logger.warn({ err: error, job: job.name }, 'background job failed; it runs again next period');
      }
    }
  }

  const tick = () => {
    current = runDueJobs().finally(() => {
      if (!stopped) timer = setTimeout(tick, periodMs);
    });
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
