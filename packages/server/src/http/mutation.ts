import { createHash } from 'node:crypto';
import { PayframeError } from '@payframe/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Outcome } from '../services/context.ts';
import type { Store } from '../storage/db.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyScope,
  releaseIdempotencyKey,
} from '../services/idempotency.ts';
import { authOf } from './request-context.ts';

const MAX_KEY_LENGTH = 255;

export function succeeded<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

/**
 * Runs a POST's work in one transaction. With an Idempotency-Key, the response is stored in that
 * same transaction, so a replay and the side effects it describes can never disagree.
 */
export async function runMutation<T>(
  store: Store,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Db) => Promise<Outcome<T>>,
): Promise<T | FastifyReply> {
  const scope = idempotencyScope(request);
  if (!scope) {
    const outcome = await store.transaction(work);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  const claim = await store.transaction((tx) => claimIdempotencyKey(tx, scope, Date.now()));
  if (claim.kind === 'replay') {
    return reply
      .code(claim.response.status)
      .header('idempotent-replayed', 'true')
      .type('application/json; charset=utf-8')
      .send(claim.response.body);
  }
  try {
    const outcome = await store.transaction(async (tx) => {
      const result = await work(tx);
      const response = result.ok
        ? { status: 200, body: JSON.stringify(result.value) }
        : { status: result.error.status, body: JSON.stringify(result.error.toBody()) };
      await completeIdempotencyKey(tx, scope, response);
      return result;
    });
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  } catch (error) {
    if (error instanceof PayframeError && error.status < 500) {
      const response = { status: error.status, body: JSON.stringify(error.toBody()) };
      await store.transaction((tx) => completeIdempotencyKey(tx, scope, response));
    } else {
      await store.transaction((tx) => releaseIdempotencyKey(tx, scope));
    }
    throw error;
  }
}

function idempotencyScope(request: FastifyRequest): IdempotencyScope | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > MAX_KEY_LENGTH) {
    throw new PayframeError('PARAMETER_INVALID', `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters.`, {
      parameter: 'Idempotency-Key',
    });
  }
  const { accountId, mode, kind } = authOf(request);
  return { accountId, mode, keyKind: kind, key, requestHash: requestHash(request) };
}

/** Method, path and parameters in a canonical form: field order, encoding and number-vs-digits do not matter. */
export function requestHash(request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  return createHash('sha256')
    .update(JSON.stringify([request.method, path, canonical(request.body)]))
    .digest('hex');
}

function canonical(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object') {
    return Object.keys(value)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])]);
  }
  return String(value);
}
