import { createHmac } from 'node:crypto';
import { PayframeError } from '@payframe/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, ServiceDeps, Store } from '../services/context.ts';
import { type IdempotencyScope, runMutation } from '../services/idempotency.ts';
import { authOf } from './request-context.ts';

const MAX_KEY_LENGTH = 255;

/**
 * Runs a POST's work through the mutation runner (services/idempotency.ts) under the request's
 * Idempotency-Key, if it sent one, and answers a replay byte for byte.
 */
export async function idempotent<T>(
  store: Store,
  deps: ServiceDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (tx: Db) => Promise<T>,
): Promise<T | FastifyReply> {
  const result = await runMutation(store, deps.clock, idempotencyScope(request, deps), work);
  if (result.kind === 'done') return result.value;
  return reply.code(result.response.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(result.response.body);
}

function idempotencyScope(request: FastifyRequest, deps: ServiceDeps): IdempotencyScope | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > MAX_KEY_LENGTH) {
    throw new PayframeError('PARAMETER_INVALID', `The Idempotency-Key header must be 1 to ${MAX_KEY_LENGTH} characters.`, {
      parameter: 'Idempotency-Key',
    });
  }
  const { accountId, mode, kind } = authOf(request);
  const { idempotencyFingerprintKey, idempotencyResponseKey } = deps.secrets;
  return { accountId, mode, keyKind: kind, key, requestHash: requestFingerprint(idempotencyFingerprintKey, request), responseKey: idempotencyResponseKey };
}

/**
 * Method, path and parameters in a canonical form: field order, encoding and number-vs-digits do
 * not matter. Keyed: a token request's parameters hold a card number and CVC, and a plain hash of
 * them falls to a search over the few digits that BIN, last 4 and expiry leave unknown.
 */
function requestFingerprint(key: Buffer, request: FastifyRequest): string {
  const path = request.url.split('?')[0] ?? '';
  return createHmac('sha256', key)
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
