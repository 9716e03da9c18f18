import type { Mode } from '@payframe/contract';
import { generateApiKey, hashApiKey, type KeyKind, keyHint, sameHash } from '../security/api-keys.ts';
import type { IdGenerator } from '../ids.ts';
import type { Db } from './context.ts';

export type CreatedKeys = { account: string; mode: Mode; secretKey: string; publishableKey: string };

/** Creates the account on first use, then a fresh secret and publishable key pair for the mode. */
export async function createKeys(db: Db, ids: IdGenerator, account: string, mode: Mode, now: number): Promise<CreatedKeys> {
  return db.transaction().execute(async (tx) => {
    await tx
      .insertInto('accounts')
      .values({ id: ids.uuid(), name: account, created_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const { id: accountId } = await tx.selectFrom('accounts').select('id').where('name', '=', account).executeTakeFirstOrThrow();
    const issue = async (kind: KeyKind) => {
      const key = generateApiKey(kind, mode);
      await tx
        .insertInto('api_keys')
        .values({ id: ids.uuid(), account_id: accountId, kind, mode, hash: hashApiKey(key), hint: keyHint(key), created_at: now, revoked_at: null })
        .execute();
      return key;
    };
    return { account, mode, secretKey: await issue('secret'), publishableKey: await issue('publishable') };
  });
}

export type KeyListing = { id: string; account: string; kind: KeyKind; mode: Mode; hint: string; created: number; revoked: number | null };

export async function listKeys(db: Db, account?: string): Promise<KeyListing[]> {
  let query = db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select(['api_keys.id', 'accounts.name as account', 'api_keys.kind', 'api_keys.mode', 'api_keys.hint', 'api_keys.created_at', 'api_keys.revoked_at'])
    .orderBy('api_keys.created_at');
  if (account) query = query.where('accounts.name', '=', account);
  const rows = await query.execute();
  return rows.map(({ created_at, revoked_at, ...row }) => ({ ...row, created: created_at, revoked: revoked_at }));
}

/** Revokes by key id or by the key itself; answers whether a live key was found. */
export async function revokeKey(db: Db, keyOrId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where((eb) => eb.or([eb('id', '=', keyOrId), eb('hash', '=', hashApiKey(keyOrId))]))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export type ResolvedKey = { keyId: string; accountId: string; kind: KeyKind; mode: Mode; testClockOffset: number };

/** The key's account and mode, or null when it is unknown or revoked. */
export async function resolveKey(db: Db, key: string): Promise<ResolvedKey | null> {
  const hash = hashApiKey(key);
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select(['api_keys.id', 'api_keys.account_id', 'api_keys.kind', 'api_keys.mode', 'api_keys.hash', 'api_keys.revoked_at', 'accounts.test_clock_offset'])
    .where('api_keys.hash', '=', hash)
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || !sameHash(row.hash, hash)) return null;
  return { keyId: row.id, accountId: row.account_id, kind: row.kind, mode: row.mode, testClockOffset: row.test_clock_offset };
}
