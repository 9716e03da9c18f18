import { type Mode, PayframeError } from '@payframe/contract';
import type { Clock } from '../domain/clock.ts';
import type { KeyKind } from '../security/api-keys.ts';
import { seal, unseal } from '../security/vault.ts';
import {
  deleteIdempotencyClaim,
  deleteIdempotencyKeyOlderThan,
  findIdempotencyKey,
  insertIdempotencyClaim,
  relockIdempotencyKey,
  storeIdempotentResponse,
} from '../storage/repositories/idempotency.ts';
import type { IdempotencyKeysTable } from '../storage/schema.ts';
import { isServiceUnavailable } from '../storage/unavailable.ts';
import { releaseClaim, releaseLater, settlePendingRelease } from './claim-release.ts';
import type { Db, Store } from './context.ts';
import { CardDeclined } from './errors.ts';

/** Responses are replayed for a day; an in-flight claim older than a minute belonged to a crashed process. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const STALE_CLAIM_MS = 60 * 1000;

/**
 * Keys are scoped by the kind of API key too: a publishable key (public by nature) cannot occupy a
 * secret key's. `requestHash` is a keyed fingerprint of the request and `responseKey` seals the
 * stored response: a copy of the database gives back neither the request's card data nor the answer.
 */
export type IdempotencyScope = { accountId: string; mode: Mode; keyKind: KeyKind; key: string; requestHash: string; responseKey: Buffer };
export type StoredResponse = { status: number; body: string };
export type MutationResult<T> = { kind: 'done'; value: T } | { kind: 'replay'; response: StoredResponse };

/**
 * Runs a POST's work in one transaction. With an idempotency scope, the response is stored in that
 * same transaction, so a replay and the side effects it describes can never disagree. A refusal
 * (4xx) is stored too; a server fault gives the key back so that the client's retry runs again.
 */
export async function runMutation<T>(store: Store, clock: Clock, scope: IdempotencyScope | null, work: (tx: Db) => Promise<T>): Promise<MutationResult<T>> {
  if (!scope) return { kind: 'done', value: await commit(store, null, work) };
  // The claim's statements each stand alone (Store.write): no BEGIN/COMMIT around them on PostgreSQL.
  await settlePendingRelease(boundTo(scope));
  const claimedAt = Date.now();
  const now = clock.now();
  // Only the claim this request made: the one locked at its `now`.
  const giveBack = (reachable: Store) => reachable.write((db) => deleteIdempotencyClaim(db, scope, now));
  let claim: Claim;
  try {
    claim = await store.write((db) => claimIdempotencyKey(db, scope, now));
  } catch (error) {
    // The outage may have cut the answer to a claim the database committed: owed back like a
    // failed request's, so that the retry is not held off by a claim no request holds.
    if (isServiceUnavailable(error)) releaseLater(boundTo(scope), store, giveBack, claimedAt + STALE_CLAIM_MS / 2);
    throw error;
  }
  if (claim.kind === 'replay') return claim;
  try {
    return { kind: 'done', value: await commit(store, scope, work) };
  } catch (error) {
    if (error instanceof CardDeclined) throw error; // stored with the writes it kept
    if (error instanceof PayframeError && error.status < 500) {
      await store.write((db) => storeIdempotentResponse(db, scope, sealed(scope, errorResponse(error))));
    } else {
      await releaseClaim(boundTo(scope), store, giveBack, claimedAt + STALE_CLAIM_MS / 2);
    }
    throw error;
  }
}

/**
 * The work and its stored response in one transaction; a decline commits too (services/errors.ts),
 * then is thrown. With nothing to store, the work's own writes decide (Store.write).
 */
async function commit<T>(store: Store, scope: IdempotencyScope | null, work: (tx: Db) => Promise<T>): Promise<T> {
  const run = scope ? store.transaction : store.write;
  const result = await run(async (tx): Promise<{ value: T } | { declined: CardDeclined }> => {
    try {
      const value = await work(tx);
      if (scope) await storeIdempotentResponse(tx, scope, sealed(scope, { status: 200, body: JSON.stringify(value) }));
      return { value };
    } catch (error) {
      if (!(error instanceof CardDeclined)) throw error;
      if (scope) await storeIdempotentResponse(tx, scope, sealed(scope, errorResponse(error)));
      return { declined: error };
    }
  });
  if ('declined' in result) throw result.declined;
  return result.value;
}

function errorResponse(error: PayframeError): StoredResponse {
  return { status: error.status, body: JSON.stringify(error.toBody()) };
}

/** Bound to the record's whole key, so a sealed response moved to another key does not open. */
function boundTo(scope: IdempotencyScope): string {
  return JSON.stringify([scope.accountId, scope.mode, scope.keyKind, scope.key]);
}

function sealed(scope: IdempotencyScope, response: StoredResponse): StoredResponse {
  return { status: response.status, body: seal(scope.responseKey, boundTo(scope), response.body) };
}

type Claim = { kind: 'claimed' } | { kind: 'replay'; response: StoredResponse };

/** A key found gone or expired after a refused insert is claimed again; past this many rounds, a 409. */
const CLAIM_ROUNDS = 3;

/**
 * Claims the key for this request, or answers what an earlier one already did. The claim is its
 * own committed write, so a concurrent duplicate sees it at once and gets a 409. The insert comes
 * first: a new key, the common case, costs that one statement.
 */
async function claimIdempotencyKey(db: Db, scope: IdempotencyScope, now: number): Promise<Claim> {
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    if (await insertIdempotencyClaim(db, scope, scope.requestHash, now)) return { kind: 'claimed' };
    const existing = await findIdempotencyKey(db, scope);
    // Given back by a failed request meanwhile: claim it again.
    if (!existing) continue;
    if (existing.created_at < now - REPLAY_WINDOW_MS) {
      await deleteIdempotencyKeyOlderThan(db, scope, now - REPLAY_WINDOW_MS);
      continue;
    }
    return answerExisting(db, scope, existing, now);
  }
  throw new PayframeError('IDEMPOTENCY_CONFLICT');
}

async function answerExisting(db: Db, scope: IdempotencyScope, existing: IdempotencyKeysTable, now: number): Promise<Claim> {
  if (existing.request_hash !== scope.requestHash) {
    throw new PayframeError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with different parameters; use a new key for a new request.');
  }
  if (existing.state === 'done' && existing.response_status !== null && existing.response_body !== null) {
    return { kind: 'replay', response: { status: existing.response_status, body: unseal(scope.responseKey, boundTo(scope), existing.response_body) } };
  }
  if (existing.locked_at > now - STALE_CLAIM_MS) {
    throw new PayframeError('IDEMPOTENCY_CONFLICT');
  }
  if (await relockIdempotencyKey(db, scope, existing.locked_at, now)) return { kind: 'claimed' };
  throw new PayframeError('IDEMPOTENCY_CONFLICT');
}
