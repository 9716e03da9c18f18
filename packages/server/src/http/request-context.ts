import type { Mode } from '@payframe/contract';
import type { FastifyRequest } from 'fastify';
import { accountNow, type Clock } from '../domain/clock.ts';
import type { KeyKind } from '../security/api-keys.ts';
import type { Caller } from '../services/context.ts';

export type RequestAuth = { keyId: string; accountId: string; kind: KeyKind; mode: Mode; testClockOffset: number };

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
}

export function authOf(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new Error('Route reached without authentication');
  return request.auth;
}

/** The caller, on the clock of its account and mode, read once per request. */
export function callerOf(request: FastifyRequest, clock: Clock): Caller {
  const auth = authOf(request);
  return { accountId: auth.accountId, mode: auth.mode, now: accountNow(clock.now(), auth.mode, auth.testClockOffset) };
}
