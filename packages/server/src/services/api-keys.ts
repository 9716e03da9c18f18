import type { Mode } from '@payframe/contract';
import type { IdGenerator } from '../ids.ts';
import { generateApiKey, hashApiKey, type KeyKind, keyHint, sameHash } from '../security/api-keys.ts';
import { ensureAccount, findApiKeyByHash, insertApiKey, listApiKeys, revokeApiKey } from '../storage/repositories/api-keys.ts';
import type { Store } from './context.ts';

export type CreatedKeys = { account: string; mode: Mode; secretKey: string; publishableKey: string };

/** Creates the account on first use, then a fresh secret and publishable key pair for the mode. */
export function createKeys(store: Store, ids: IdGenerator, account: string, mode: Mode, now: number): Promise<CreatedKeys> {
  return store.transaction(async (tx) => {
    const accountId = await ensureAccount(tx, { id: ids.uuid(), name: account, createdAt: now });
    const issue = async (kind: KeyKind) => {
      const key = generateApiKey(kind, mode);
      await insertApiKey(tx, { id: ids.uuid(), account_id: accountId, kind, mode, hash: hashApiKey(key), hint: keyHint(key), created_at: now, revoked_at: null });
      return key;
    };
    return { account, mode, secretKey: await issue('secret'), publishableKey: await issue('publishable') };
  });
}

export type KeyListing = { id: string; account: string; kind: KeyKind; mode: Mode; hint: string; created: number; revoked: number | null };

export async function listKeys(store: Store, account?: string): Promise<KeyListing[]> {
  const rows = await store.read((db) => listApiKeys(db, account));
  return rows.map(({ created_at, revoked_at, ...row }) => ({ ...row, created: created_at, revoked: revoked_at }));
}

/** Revokes by key id or by the key itself; answers whether a live key was found. */
export function revokeKey(store: Store, keyOrId: string, now: number): Promise<boolean> {
  return store.read((db) => revokeApiKey(db, { id: keyOrId, hash: hashApiKey(keyOrId) }, now));
}

export type ResolvedKey = { keyId: string; accountId: string; kind: KeyKind; mode: Mode; testClockOffset: number };

/** The key's account and mode, or null when it is unknown or revoked. */
export async function resolveKey(store: Store, key: string): Promise<ResolvedKey | null> {
  const hash = hashApiKey(key);
  const row = await store.read((db) => findApiKeyByHash(db, hash));
  if (!row || row.revoked_at !== null || !sameHash(row.hash, hash)) return null;
  return { keyId: row.id, accountId: row.account_id, kind: row.kind, mode: row.mode, testClockOffset: row.test_clock_offset };
}
