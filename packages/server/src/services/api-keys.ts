import type { Mode } from '@payframe/contract';
import { epochSeconds } from '../domain/clock.ts';
import type { IdGenerator } from '../ids.ts';
import { generateApiKey, hashApiKey, type KeyKind, keyHint, sameHash } from '../security/api-keys.ts';
import { ensureAccount, findApiKeyByHash, insertApiKey, listApiKeys, revokeApiKey, touchKeyLastUsed } from '../storage/repositories/api-keys.ts';
import type { Db, Store } from './context.ts';

/** A key's last use is written at most this often, so that /v2 requests rarely write for it. */
export const LAST_USED_PRECISION_MS = 60_000;

export type CreatedKeys = { account: string; mode: Mode; secretKey: string; publishableKey: string };

/** Creates the account on first use, then a fresh secret and publishable key pair for the mode. */
export function createKeys(store: Store, ids: IdGenerator, account: string, mode: Mode, now: number): Promise<CreatedKeys> {
  return store.transaction(async (tx) => {
    const accountId = await ensureAccount(tx, { id: ids.uuid(), name: account, createdAt: now });
    const pair = await issueKeyPair(tx, ids, accountId, mode, now);
    return { account, mode, secretKey: pair.secretKey, publishableKey: pair.publishableKey };
  });
}

export type IssuedPair = { secretKey: string; publishableKey: string; ids: [string, string] };

/** A fresh secret and publishable key pair of the account in the mode; the keys exist only in this answer. */
export async function issueKeyPair(db: Db, ids: IdGenerator, accountId: string, mode: Mode, now: number): Promise<IssuedPair> {
  const issue = async (kind: KeyKind) => {
    const key = generateApiKey(kind, mode);
    const id = ids.uuid();
    await insertApiKey(db, {
      id,
      account_id: accountId,
      kind,
      mode,
      hash: hashApiKey(key),
      hint: keyHint(key),
      created_at: now,
      revoked_at: null,
      last_used_at: null,
    });
    return { key, id };
  };
  const secret = await issue('secret');
  const publishable = await issue('publishable');
  return { secretKey: secret.key, publishableKey: publishable.key, ids: [secret.id, publishable.id] };
}

/** `created` and `revoked` in seconds since the epoch, as the API's and `users list`'s timestamps. */
export type KeyListing = { id: string; account: string; kind: KeyKind; mode: Mode; hint: string; created: number; revoked: number | null };

export async function listKeys(store: Store, account?: string): Promise<KeyListing[]> {
  const rows = await store.read((db) => listApiKeys(db, account));
  return rows.map(({ created_at, revoked_at, ...row }) => ({
    ...row,
    created: epochSeconds(created_at),
    revoked: revoked_at === null ? null : epochSeconds(revoked_at),
  }));
}

/** Revokes by key id or by the key itself; answers whether a live key was found. */
export function revokeKey(store: Store, keyOrId: string, now: number): Promise<boolean> {
  return store.read((db) => revokeApiKey(db, { id: keyOrId, hash: hashApiKey(keyOrId) }, now));
}

export type ResolvedKey = { keyId: string; accountId: string; kind: KeyKind; mode: Mode; testClockOffset: number };

/** A resolved key, and when its last use was noted in the database. */
export type LookedUpKey = { key: ResolvedKey; lastUsedAt: number };

/**
 * The key (by its hash) with its account and mode, or null when it is unknown or revoked. Notes the
 * use (see LAST_USED_PRECISION_MS). Requests go through services/api-key-cache.ts.
 */
export async function lookUpKey(store: Store, hash: string, now: number): Promise<LookedUpKey | null> {
  const row = await store.read((db) => findApiKeyByHash(db, hash));
  if (!row || row.revoked_at !== null || !sameHash(row.hash, hash)) return null;
  const staleBefore = now - LAST_USED_PRECISION_MS;
  const stale = row.last_used_at === null || row.last_used_at < staleBefore;
  if (stale) await store.read((db) => touchKeyLastUsed(db, row.id, now, staleBefore));
  return {
    key: { keyId: row.id, accountId: row.account_id, kind: row.kind, mode: row.mode, testClockOffset: row.test_clock_offset },
    lastUsedAt: stale ? now : Number(row.last_used_at),
  };
}
