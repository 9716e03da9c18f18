import { hashApiKey } from '../security/api-keys.ts';
import { readKeyGeneration, touchKeyLastUsed } from '../storage/repositories/api-keys.ts';
import { LAST_USED_PRECISION_MS, type LookedUpKey, lookUpKey, type ResolvedKey } from './api-keys.ts';
import type { Store } from './context.ts';
import { repeatingTask } from './repeating-task.ts';

/** How often each instance reads the key generation. */
const POLL_MS = 250;
/**
 * Cached keys are served only while the last good read of the generation began this recently: a
 * change committed anywhere is seen by a read that begins after it, so no instance answers from a
 * stale key for longer than this, even when polls fail or lag. Stays under one second.
 */
const TRUST_MS = 750;

export type ApiKeyCache = {
  /**
   * The key's account and mode when the cache may answer now, without waiting; undefined when only
   * `resolve` can tell (the key is not cached, the cache is past its trust, or a change elsewhere
   * is being read).
   */
  cached(key: string, now: number): ResolvedKey | undefined;
  /** The key's account and mode, or null when it is unknown or revoked. */
  resolve(key: string, now: number): Promise<ResolvedKey | null>;
  /** Drops every cached key: this instance just changed what some key resolves to. */
  forget(): void;
  close(): void;
};

/**
 * Resolved API keys kept in memory, so that a request reads no key from the database in the steady
 * state. One timer per instance polls the key generation (storage migration 009) and drops the
 * cache when it moves; unknown keys are not cached, so a new key works everywhere at once.
 */
export function apiKeyCache(store: Store): ApiKeyCache {
  const entries = new Map<string, LookedUpKey>();
  let generation: number | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;
  // Bumped on every drop: a lookup begun before a drop must not put back what it read.
  let epoch = 0;

  const forget = () => {
    entries.clear();
    epoch += 1;
  };
  const check = async () => {
    const startedAt = performance.now();
    const current = await store.read((db) => readKeyGeneration(db));
    if (current !== generation) {
      forget();
      generation = current;
    }
    checkedAt = startedAt;
  };
  // A failed read leaves checkedAt as it was: past TRUST_MS, requests read keys from the database.
  const poller = repeatingTask(POLL_MS, check);
  poller.run();
  // Where the store knows cheaply that another process committed (a CLI revoke on the embedded
  // store), the generation is read before any cached key is served again: refused at once there.
  let rechecking: Promise<void> | null = null;
  const recheck = () =>
    check()
      .catch(forget)
      .finally(() => {
        rechecking = null;
      });
  // Asked once per turn of the event loop, not once per request. Every request handled in a turn
  // arrived before that turn's poll returned, so before its first ask: a commit that ended before a
  // request was sent is seen by that ask. The answer is dropped before the next poll (setImmediate).
  let askedThisTurn = false;
  const changedElsewhere = (): boolean => {
    if (askedThisTurn || !store.changedElsewhere) return false;
    askedThisTurn = true;
    setImmediate(() => {
      askedThisTurn = false;
    });
    return store.changedElsewhere();
  };

  const cached = (key: string, now: number): ResolvedKey | undefined => {
    if (changedElsewhere()) rechecking ??= recheck();
    if (rechecking) return undefined;
    // By the key itself, which the request holds in memory anyway: a hit costs no hashing.
    const entry = performance.now() - checkedAt < TRUST_MS ? entries.get(key) : undefined;
    if (!entry) return undefined;
    const staleBefore = now - LAST_USED_PRECISION_MS;
    if (entry.lastUsedAt < staleBefore) {
      entry.lastUsedAt = now;
      // Off the request's path: a lost last-used note is not worth failing or delaying a request.
      store.read((db) => touchKeyLastUsed(db, entry.key.keyId, now, staleBefore)).catch(() => undefined);
    }
    return entry.key;
  };

  return {
    cached,
    async resolve(key, now) {
      const hit = cached(key, now);
      if (hit) return hit;
      if (rechecking) {
        await rechecking;
        const afterRecheck = cached(key, now);
        if (afterRecheck) return afterRecheck;
      }
      const startedIn = epoch;
      const found = await lookUpKey(store, hashApiKey(key), now);
      if (found && startedIn === epoch) entries.set(key, found);
      return found?.key ?? null;
    },
    forget,
    close: () => poller.stop(),
  };
}
