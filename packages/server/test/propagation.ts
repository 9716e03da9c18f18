import { setTimeout as delay } from 'node:timers/promises';

/**
 * A revoked key or a moved test clock (services/api-key-cache.ts), or another instance's rate-limit
 * counts (services/rate-limits.ts), reach every instance within this time.
 */
export const PROPAGATION_MS = 1_000;

/**
 * Repeats `attempt` until `settled` holds of its answer, and answers the last one. An attempt begun
 * PROPAGATION_MS after the call is the last: callers assert on it, so a change that takes longer fails.
 */
export async function withinPropagation<T>(attempt: () => Promise<T>, settled: (value: T) => boolean): Promise<T> {
  const deadline = performance.now() + PROPAGATION_MS;
  for (;;) {
    const last = performance.now() >= deadline;
    const value = await attempt();
    if (last || settled(value)) return value;
    await delay(50);
  }
}
