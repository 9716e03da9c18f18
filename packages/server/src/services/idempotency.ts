import { type Mode, PayframeError } from '@payframe/contract';
import type { KeyKind } from '../security/api-keys.ts';
import type { Db } from './context.ts';

/** Responses are replayed for a day; an in-flight claim older than a minute belonged to a crashed process. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const STALE_CLAIM_MS = 60 * 1000;

/** Keys are scoped by the kind of API key too: a publishable key (public by nature) cannot occupy a secret key's. */
export type IdempotencyScope = { accountId: string; mode: Mode; keyKind: KeyKind; key: string; requestHash: string };
export type StoredResponse = { status: number; body: string };
export type Claim = { kind: 'claimed' } | { kind: 'replay'; response: StoredResponse };

function byKey(scope: IdempotencyScope) {
  return { account_id: scope.accountId, mode: scope.mode, key_kind: scope.keyKind, key: scope.key };
}

/**
 * Claims the key for this request, or answers what an earlier one already did. The claim is its
 * own committed write, so a concurrent duplicate sees it at once and gets a 409.
 */
export async function claimIdempotencyKey(db: Db, scope: IdempotencyScope, now: number): Promise<Claim> {
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) => eb.and(byKey(scope)))
    .where('created_at', '<', now - REPLAY_WINDOW_MS)
    .execute();
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({ ...byKey(scope), request_hash: scope.requestHash, state: 'in_flight', response_status: null, response_body: null, created_at: now, locked_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'mode', 'key_kind', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return { kind: 'claimed' };

  const existing = await db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where((eb) => eb.and(byKey(scope)))
    .executeTakeFirstOrThrow();
  if (existing.request_hash !== scope.requestHash) {
    throw new PayframeError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used with different parameters; use a new key for a new request.',
    );
  }
  if (existing.state === 'done' && existing.response_status !== null && existing.response_body !== null) {
    return { kind: 'replay', response: { status: existing.response_status, body: existing.response_body } };
  }
  if (existing.locked_at > now - STALE_CLAIM_MS) {
    throw new PayframeError('IDEMPOTENCY_CONFLICT');
  }
  const takenOver = await db
    .updateTable('idempotency_keys')
    .set({ locked_at: now })
    .where((eb) => eb.and(byKey(scope)))
    .where('locked_at', '=', existing.locked_at)
    .executeTakeFirst();
  if (takenOver.numUpdatedRows === 1n) return { kind: 'claimed' };
  throw new PayframeError('IDEMPOTENCY_CONFLICT');
}

/** Stores the response; called inside the transaction of the side effects it describes. */
export async function completeIdempotencyKey(db: Db, scope: IdempotencyScope, response: StoredResponse): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response_status: response.status, response_body: response.body })
    .where((eb) => eb.and(byKey(scope)))
    .execute();
}

/** Gives the key back after a server fault, so that the client's retry runs the request again. */
export async function releaseIdempotencyKey(db: Db, scope: IdempotencyScope): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) => eb.and(byKey(scope)))
    .where('state', '=', 'in_flight')
    .execute();
}
