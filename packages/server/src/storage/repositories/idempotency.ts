import type { Mode } from '@payframe/contract';
import type { Db } from '../db.ts';
import type { ApiKeysTable, IdempotencyKeysTable } from '../schema.ts';
import { portable, runStatement } from '../statements.ts';

/** Scoped by the kind of API key too: a publishable key (public by nature) cannot occupy a secret key's. */
export type IdempotencyKeyId = { accountId: string; mode: Mode; keyKind: ApiKeysTable['kind']; key: string };

function byKey(id: IdempotencyKeyId) {
  return { account_id: id.accountId, mode: id.mode, key_kind: id.keyKind, key: id.key };
}

export async function deleteIdempotencyKeyOlderThan(db: Db, id: IdempotencyKeyId, before: number): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) => eb.and(byKey(id)))
    .where('created_at', '<', before)
    .execute();
}

const INSERT_CLAIM = portable(
  `insert into idempotency_keys (account_id, mode, key_kind, key, request_hash, state, response_status, response_body, created_at, locked_at)
  values ($1, $2, $3, $4, $5, 'in_flight', null, null, $6, $7) on conflict (account_id, mode, key_kind, key) do nothing returning key`,
);

/** Inserts an in-flight claim; answers false when the key is already there. Run by every keyed request: fixed text. */
export async function insertIdempotencyClaim(db: Db, id: IdempotencyKeyId, requestHash: string, now: number): Promise<boolean> {
  const rows = await runStatement(db, INSERT_CLAIM, [id.accountId, id.mode, id.keyKind, id.key, requestHash, now, now]);
  return rows.length === 1;
}

export function findIdempotencyKey(db: Db, id: IdempotencyKeyId): Promise<IdempotencyKeysTable | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where((eb) => eb.and(byKey(id)))
    .executeTakeFirst();
}

/** Takes over a stale claim, unless another request took it over since it was read. */
export async function relockIdempotencyKey(db: Db, id: IdempotencyKeyId, lockedAt: number, now: number): Promise<boolean> {
  const takenOver = await db
    .updateTable('idempotency_keys')
    .set({ locked_at: now })
    .where((eb) => eb.and(byKey(id)))
    .where('locked_at', '=', lockedAt)
    .executeTakeFirst();
  return takenOver.numUpdatedRows === 1n;
}

const STORE_RESPONSE = portable(
  `update idempotency_keys set state = 'done', response_status = $1, response_body = $2
  where account_id = $3 and mode = $4 and key_kind = $5 and key = $6`,
);

/** Run by every keyed request: fixed text. */
export async function storeIdempotentResponse(db: Db, id: IdempotencyKeyId, response: { status: number; body: string }): Promise<void> {
  await runStatement(db, STORE_RESPONSE, [response.status, response.body, id.accountId, id.mode, id.keyKind, id.key]);
}

/** Gives back the in-flight claim locked at `lockedAt` (the claiming request's), and no other. */
export async function deleteIdempotencyClaim(db: Db, id: IdempotencyKeyId, lockedAt: number): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) => eb.and(byKey(id)))
    .where('state', '=', 'in_flight')
    .where('locked_at', '=', lockedAt)
    .execute();
}
