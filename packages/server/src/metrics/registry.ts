import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Store } from '../storage/db.ts';
import { registerStoreGauges } from './store-gauges.ts';

/**
 * Every series Payframe exposes (docs/operations.md, "Metrics"). Labels hold only bounded values
 * (route patterns, status codes, currencies, outcomes), never an id, a key, an e-mail or card data.
 */
export type Metrics = {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  charges: Counter<'outcome' | 'currency'>;
  webhookAttempts: Counter<'outcome'>;
};

/** One registry per server, not prom-client's global one: tests build several apps in one process. */
export function createMetrics(store: Store): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'payframe_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const requestDuration = new Histogram({
    name: 'payframe_http_request_duration_seconds',
    help: 'Time from a request arriving to its response being sent, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const charges = new Counter({
    name: 'payframe_charges_total',
    help: 'Charges created, captured and declined by the acquirer, by currency (idempotent replays not counted).',
    labelNames: ['outcome', 'currency'] as const,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'payframe_webhook_attempts_total',
    help: 'Webhook delivery attempts made by this instance, by outcome: succeeded, retrying (another attempt is scheduled) or failed (no attempt left).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  registerStoreGauges(registry, store);
  return { registry, requests, requestDuration, charges, webhookAttempts };
}
