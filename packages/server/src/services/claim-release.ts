import type { Store } from '../storage/db.ts';

/** How often a claim that could not be given back is tried again. */
const RETRY_MS = 250;

type PendingRelease = { release: () => Promise<void>; untilMs: number };

/** Claims of this process's failed requests still to be given back, by key. */
const pending = new Map<string, PendingRelease>();

/**
 * Gives a failed request's Idempotency-Key back (`release`), and when the database cannot be
 * reached to do so (the very outage that failed the request, a failover say) keeps trying in the
 * background until `untilMs` on the real clock. Otherwise the merchant's retry with the same key
 * would meet 409 IDEMPOTENCY_CONFLICT for a minute after the database came back, until the claim
 * went stale. `untilMs` stays short of that minute: once a claim is stale another request may take
 * it over, and a late release must not give away that request's claim.
 */
export async function releaseClaim(key: string, store: Store, release: (store: Store) => Promise<void>, untilMs: number): Promise<void> {
  try {
    await release(store);
  } catch (error) {
    releaseLater(key, store, release, untilMs);
    throw error;
  }
}

/**
 * The same, without a first attempt now: for a claim that may exist, whose write failed in the
 * outage (the database can commit it and the connection drop before its answer arrives). The
 * release must then give back only that claim, never one another request made meanwhile.
 */
export function releaseLater(key: string, store: Store, release: (store: Store) => Promise<void>, untilMs: number): void {
  const entry = { release: () => release(store), untilMs };
  pending.set(key, entry);
  retryInBackground(key, entry);
}

/**
 * Before a request claims `key`: a claim this process still owes the database is given back first,
 * so a retry that reaches this instance as the database returns never races the background release
 * (and loses with a 409). Fails, like the request would, while the database is still away.
 */
export async function settlePendingRelease(key: string): Promise<void> {
  const entry = pending.get(key);
  if (!entry) return;
  if (Date.now() >= entry.untilMs) {
    pending.delete(key);
    return;
  }
  await entry.release();
  if (pending.get(key) === entry) pending.delete(key);
}

function retryInBackground(key: string, entry: PendingRelease): void {
  const attempt = () => {
    if (pending.get(key) !== entry) return;
    if (Date.now() + RETRY_MS >= entry.untilMs) {
      pending.delete(key);
      return;
    }
    entry.release().then(
      () => {
        if (pending.get(key) === entry) pending.delete(key);
      },
      // Unref'd: a stopping process does not wait for it; the claim then goes stale as before.
      () => setTimeout(attempt, RETRY_MS).unref(),
    );
  };
  setTimeout(attempt, RETRY_MS).unref();
}
