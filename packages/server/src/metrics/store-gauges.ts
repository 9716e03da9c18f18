import { Gauge, type Registry } from 'prom-client';
import type { Store } from '../storage/db.ts';
import { jobSchedules, pendingDeliveryCount } from '../storage/repositories/metrics-reads.ts';

/**
 * Gauges read from the database at scrape time, so every instance reports the same shared queue
 * and schedule. A scrape during an outage leaves them out rather than failing the whole scrape:
 * the request and process series matter most then.
 */
export function registerStoreGauges(registry: Registry, store: Store): void {
  const poolStats = store.poolStats;
  // First: the gauges below take connections for their own reads, and would be counted waiting.
  if (poolStats)
    new Gauge({
      name: 'payframe_db_pool_connections',
      help: 'Database connections of this instance by state: idle, in use, and requests waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const { total, idle, waiting } = poolStats();
        this.set({ state: 'idle' }, idle);
        this.set({ state: 'in_use' }, total - idle);
        this.set({ state: 'waiting' }, waiting);
      },
    });
  new Gauge({
    name: 'payframe_webhook_deliveries_pending',
    help: 'Webhook deliveries waiting for an attempt (first or retry), across all instances.',
    registers: [registry],
    async collect() {
      const count = await store.read(pendingDeliveryCount).catch(() => null);
      if (count !== null) this.set(count);
    },
  });
  new Gauge({
    name: 'payframe_sweeper_lag_seconds',
    help: 'Seconds each background sweeper job is past its due time with no instance having taken it; near zero while the sweeper keeps up.',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      const jobs = await store.read(jobSchedules).catch(() => null);
      if (!jobs) return;
      this.reset();
      const now = Date.now();
      for (const job of jobs) this.set({ job: job.name }, Math.max(0, now - job.next_run_at) / 1000);
    },
  });
}
