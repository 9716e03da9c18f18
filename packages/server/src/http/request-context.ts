import type { Mode } from '@payframe/contract';
import type { FastifyRequest } from 'fastify';
import { accountNow } from '../domain/clock.ts';
import type { KeyKind } from '../security/api-keys.ts';
import type { Caller } from '../services/context.ts';

export type RequestAuth = { keyId: string; accountId: string; kind: KeyKind; mode: Mode; testClockOffset: number };

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route: secret keys only unless it says publishable keys may too. */
    access?: 'publishable' | 'secret';
    /** Creates or moves money: refused in live mode while no acquirer is configured. */
    movesMoney?: boolean;
    /** A test helper: refused for live keys. */
    testOnly?: boolean;
    /** The path exists, with other methods. */
    methodNotAllowed?: boolean;
  }
}

export function authOf(request: FastifyRequest): RequestAuth {
  if (!request.auth) throw new Error('Route reached without authentication');
  return request.auth;
}

/** The caller, on the clock of its account and mode, read once per request. */
export function callerOf(request: FastifyRequest): Caller {
  const auth = authOf(request);
  return { accountId: auth.accountId, mode: auth.mode, now: accountNow(Date.now(), auth.mode, auth.testClockOffset) };
}
