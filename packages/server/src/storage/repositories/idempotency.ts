import type { Mode } from '@payframe/contract';
import type { Db } from '../db.ts';
import type { ApiKeysTable, IdempotencyKeysTable } from '../schema.ts';

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

/** Inserts an in-flight claim; answers false when the key is already there. */
export async function insertIdempotencyClaim(db: Db, id: IdempotencyKeyId, requestHash: string, now: number): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ ...byKey(id), request_hash: requestHash, state: 'in_flight', response_status: null, response_body: null, created_at: now, locked_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'mode', 'key_kind', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function findIdempotencyKey(db: Db, id: IdempotencyKeyId): Promise<IdempotencyKeysTable> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where((eb) => eb.and(byKey(id)))
    .executeTakeFirstOrThrow();
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

export async function storeIdempotentResponse(db: Db, id: IdempotencyKeyId, response: { status: number; body: string }): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response_status: response.status, response_body: response.body })
    .where((eb) => eb.and(byKey(id)))
    .execute();
}

export async function deleteIdempotencyClaim(db: Db, id: IdempotencyKeyId): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) => eb.and(byKey(id)))
    .where('state', '=', 'in_flight')
    .execute();
}
