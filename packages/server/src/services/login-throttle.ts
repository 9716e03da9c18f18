import { PayframeError } from '@payframe/contract';
import { deleteLoginAttempts, reserveLoginAttempts } from '../storage/repositories/dashboard-login-failures.ts';
import type { ServiceDeps, Store } from './context.ts';

/** 5 failed sign-ins within 15 minutes, for an e-mail or from an address, close sign-in for it. */
export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;

/**
 * Counts an attempt before its password is checked, so that concurrent guesses cannot all be
 * checked before the first failure is recorded: at most 5 checks per key in the window, whatever
 * the concurrency. Attempts are rows in the database, so every instance counts the same ones. A
 * refused attempt is not counted: sign-in opens again once the 5th newest attempt leaves the window.
 */
export async function throttledCheck<T>(store: Store, deps: ServiceDeps, keys: string[], check: () => Promise<T | null>): Promise<T | null> {
  const now = deps.clock.now();
  const attempts = keys.map((key) => ({ id: deps.ids.uuid(), key, failed_at: now }));
  const reservation = await store.transaction((tx) =>
    reserveLoginAttempts(tx, attempts, now - LOGIN_FAILURE_WINDOW_MS, LOGIN_FAILURE_LIMIT, LOGIN_FAILURE_WINDOW_MS),
  );
  if (!reservation.reserved) {
    const seconds = Math.max(1, Math.ceil((reservation.reopensAt - now) / 1000));
    throw new PayframeError('RATE_LIMITED', 'Too many failed sign-ins: wait before trying again.', { headers: { 'retry-after': String(seconds) } });
  }
  const passed = await check();
  if (passed !== null) {
    await store.write((db) =>
      deleteLoginAttempts(
        db,
        attempts.map((attempt) => attempt.id),
      ),
    );
  }
  return passed;
}
