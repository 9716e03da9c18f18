import { sql } from 'kysely';
import type { Db } from '../db.ts';
import type { ApiKeysTable } from '../schema.ts';
import type { Owner } from './owned.ts';

/** Creates the account on first use; answers its id either way. */
export async function ensureAccount(db: Db, account: { id: string; name: string; createdAt: number }): Promise<string> {
  await db
    .insertInto('accounts')
    .values({ id: account.id, name: account.name, created_at: account.createdAt })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const { id } = await db.selectFrom('accounts').select('id').where('name', '=', account.name).executeTakeFirstOrThrow();
  return id;
}

export async function insertApiKey(db: Db, key: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export type ApiKeyListing = Pick<ApiKeysTable, 'id' | 'kind' | 'mode' | 'hint' | 'created_at' | 'revoked_at'> & { account: string };

export function listApiKeys(db: Db, account?: string): Promise<ApiKeyListing[]> {
  let query = db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select(['api_keys.id', 'accounts.name as account', 'api_keys.kind', 'api_keys.mode', 'api_keys.hint', 'api_keys.created_at', 'api_keys.revoked_at'])
    .orderBy('api_keys.created_at');
  if (account) query = query.where('accounts.name', '=', account);
  return query.execute();
}

/** Revokes the key with this id or this hash; answers whether an unrevoked key was found. */
export async function revokeApiKey(db: Db, idOrHash: { id: string; hash: string }, now: number): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where((eb) => eb.or([eb('id', '=', idOrHash.id), eb('hash', '=', idOrHash.hash)]))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export type ApiKeyOwner = Pick<ApiKeysTable, 'id' | 'account_id' | 'kind' | 'mode' | 'hash' | 'revoked_at'> & {
  test_clock_offset: number;
  last_used_at: number | null;
};

/** The key with this hash and its account's test clock, revoked or not. */
export function findApiKeyByHash(db: Db, hash: string): Promise<ApiKeyOwner | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select([
      'api_keys.id',
      'api_keys.account_id',
      'api_keys.kind',
      'api_keys.mode',
      'api_keys.hash',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'accounts.test_clock_offset',
    ])
    .where('api_keys.hash', '=', hash)
    .executeTakeFirst();
}

export type AccountKeyRow = Pick<ApiKeysTable, 'id' | 'kind' | 'mode' | 'hint' | 'created_at' | 'revoked_at'> & { last_used_at: number | null };

const ACCOUNT_KEY_COLUMNS = ['id', 'kind', 'mode', 'hint', 'created_at', 'revoked_at', 'last_used_at'] as const;

/** The owner's keys, newest first. */
export function listOwnedKeys(db: Db, owner: Owner): Promise<AccountKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .select(ACCOUNT_KEY_COLUMNS)
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export function findOwnedKey(db: Db, owner: Owner, id: string): Promise<AccountKeyRow | undefined> {
  return db
    .selectFrom('api_keys')
    .select(ACCOUNT_KEY_COLUMNS)
    .where('id', '=', id)
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .executeTakeFirst();
}

/** Revokes the owner's key unless it is revoked already (its first revocation time stays). */
export async function revokeOwnedKey(db: Db, owner: Owner, id: string, now: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Records a use of the key, unless one was recorded since `staleBefore`: most requests write nothing. */
export async function touchKeyLastUsed(db: Db, id: string, now: number, staleBefore: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
    .execute();
}

/** Moves whenever a key may resolve differently (migration 009's triggers bump it). */
export async function readKeyGeneration(db: Db): Promise<number> {
  const { rows } = await sql<{ generation: number | string }>`select generation from key_generation where id = 1`.execute(db);
  return Number(rows[0]?.generation ?? 0);
}

/** The hints (`sk_test_…AbCd`) of the keys with these ids that still exist, by id. */
export async function keyHints(db: Db, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id) => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('api_keys').select(['id', 'hint']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, row.hint]));
}
