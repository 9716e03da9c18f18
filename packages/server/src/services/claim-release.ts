import type { Store } from '../storage/db.ts';

/** How often a claim that could not be given back is tried again. */
const RETRY_MS = 250;

/**
 * Gives a failed request's Idempotency-Key back (`release`), and when the database cannot be
 * reached to do so (the very outage that failed the request, a failover say) keeps trying in the
 * background until `untilMs` on the real clock. Otherwise the merchant's retry with the same key
 * would meet 409 IDEMPOTENCY_CONFLICT for a minute after the database came back, until the claim
 * went stale. `untilMs` stays short of that minute: once a claim is stale another request may take
 * it over, and a late release must not give away that request's claim.
 */
export async function releaseClaim(store: Store, release: (store: Store) => Promise<void>, untilMs: number): Promise<void> {
  try {
    await release(store);
  } catch (error) {
    retryInBackground(store, release, untilMs);
    throw error;
  }
}

function retryInBackground(store: Store, release: (store: Store) => Promise<void>, untilMs: number): void {
  const attempt = () => {
    if (Date.now() + RETRY_MS >= untilMs) return;
    release(store).catch(() => {
      // Unref'd: a stopping process does not wait for it; the claim then goes stale as before.
      setTimeout(attempt, RETRY_MS).unref();
    });
  };
  setTimeout(attempt, RETRY_MS).unref();
}
