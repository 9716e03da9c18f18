import { PayframeError } from '@payframe/contract';
import { deleteFailuresBefore, insertLoginFailures, nthNewestFailure } from '../storage/repositories/dashboard-login-failures.ts';
import type { ServiceDeps, Store } from './context.ts';

/** 5 failed sign-ins within 15 minutes, for an e-mail or from an address, close sign-in for it. */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

/**
 * Failures are rows in the database, so every instance counts the same ones. A refused attempt is
 * not itself a failure: sign-in opens again once the 5th newest failure leaves the window.
 */
export function loginThrottle(store: Store, deps: ServiceDeps, keys: string[]) {
  return {
    async check(): Promise<void> {
      const now = deps.clock.now();
      let reopensAt = 0;
      for (const key of keys) {
        const fifth = await store.read((db) => nthNewestFailure(db, key, now - LOGIN_FAILURE_WINDOW_MS, LOGIN_FAILURE_LIMIT));
        if (fifth !== null) reopensAt = Math.max(reopensAt, fifth + LOGIN_FAILURE_WINDOW_MS);
      }
      if (reopensAt > now) {
        const seconds = Math.max(1, Math.ceil((reopensAt - now) / 1000));
        throw new PayframeError('RATE_LIMITED', 'Too many failed sign-ins: wait before trying again.', { headers: { 'retry-after': String(seconds) } });
      }
    },
    async fail(): Promise<void> {
      const now = deps.clock.now();
      await store.transaction(async (tx) => {
        await deleteFailuresBefore(tx, keys, now - LOGIN_FAILURE_WINDOW_MS);
        await insertLoginFailures(tx, keys.map((key) => ({ id: deps.ids.uuid(), key, failed_at: now })));
      });
    },
  };
}
