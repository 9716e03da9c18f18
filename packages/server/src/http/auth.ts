import { PayframeError } from '@payframe/contract';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Clock } from '../domain/clock.ts';
import { looksLikeApiKey } from '../security/api-keys.ts';
import type { ApiKeyCache } from '../services/api-key-cache.ts';
import type { ResolvedKey } from '../services/api-keys.ts';
import { authOf } from './request-context.ts';

/*
 * The /v2 gate, in the order of docs/design.md ("Keys and modes", "Check order"): the key
 * (401) → HTTPS for live keys → a publishable key on a secret route (403) → live money movement
 * without an acquirer, or a live key on a test helper (403) → unknown route (404) or method (405)
 * → the body (400/413/415). Each step is a hook of the scope it belongs to (app.ts registers the
 * scopes): the /v2 scope checks the key, the secret realm refuses publishable keys, its money and
 * test-helper scopes judge live mode, and a path's refused methods answer 405 from their own
 * route. All of it runs on onRequest, before the body is read, so a refused request costs no parsing.
 */

/**
 * Every /v2 request: who is calling, over what; and unknown URLs, once the caller is known. A
 * callback hook: a key the cache holds is judged at once, without a promise; any other waits for
 * the cache to read it.
 */
export function authenticate(keys: ApiKeyCache, clock: Clock) {
  return function authenticateRequest(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (request.method === 'OPTIONS') {
      done();
      return;
    }
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || !looksLikeApiKey(key)) {
      done(callerRefused(key));
      return;
    }
    const now = clock.now();
    const cached = keys.cached(key, now);
    if (cached) {
      done(refusal(request, cached));
      return;
    }
    keys.resolve(key, now).then(
      (resolved) => done(resolved ? refusal(request, resolved) : callerRefused(key)),
      (error: Error) => done(error),
    );
  };
}

function callerRefused(key: string | undefined): PayframeError {
  return new PayframeError('INVALID_API_KEY', key ? 'Invalid API key provided.' : 'No API key provided: send it in the X-Api-Key header.');
}

/** Records who is calling, then what this caller may not do here: undefined when the request goes on. */
function refusal(request: FastifyRequest, resolved: ResolvedKey): PayframeError | undefined {
  request.auth = resolved;
  if (resolved.mode === 'live' && request.protocol !== 'https') return new PayframeError('HTTPS_REQUIRED');
  // A publishable key may only create tokens: anything else is refused before the route is judged.
  if (request.is404) return new PayframeError(resolved.kind === 'publishable' ? 'PUBLISHABLE_KEY_NOT_ALLOWED' : 'ROUTE_NOT_FOUND');
  return undefined;
}

/** The secret realm: everything but creating tokens needs a secret key. A callback hook: it runs on most requests. */
export function secretKeyOnly(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  done(authOf(request).kind === 'publishable' ? new PayframeError('PUBLISHABLE_KEY_NOT_ALLOWED') : undefined);
}

/** Routes that create or move money: refused in live mode while no acquirer is configured. */
export function liveNeedsAcquirer(liveEnabled: boolean) {
  return function refuseLiveWithoutAcquirer(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (authOf(request).mode !== 'live' || liveEnabled) {
      done();
      return;
    }
    done(new PayframeError('LIVE_MODE_NOT_ALLOWED', 'Live mode is not enabled on this server: no acquirer is configured.'));
  };
}

/** Test helpers: refused for live keys. */
export async function testModeOnly(request: FastifyRequest): Promise<void> {
  if (authOf(request).mode === 'live') {
    throw new PayframeError('LIVE_MODE_NOT_ALLOWED', 'Test helpers accept test-mode secret keys only.');
  }
}
