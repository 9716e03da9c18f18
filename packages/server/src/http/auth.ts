import { PayframeError } from '@payframe/contract';
import type { FastifyRequest } from 'fastify';
import { looksLikeApiKey } from '../security/api-keys.ts';
import { type Db } from '../services/context.ts';
import { resolveKey } from '../services/api-keys.ts';

export type AuthOptions = { db: Db; liveEnabled: boolean };

/**
 * The /v2 gate, in the order of DESIGN §4: key (401) → HTTPS for live keys → publishable key on a
 * secret route → live money movement without an acquirer → unknown route or method.
 * Runs before the body is read, so a refused request costs no parsing.
 */
export function authenticate({ db, liveEnabled }: AuthOptions) {
  return async function authenticateRequest(request: FastifyRequest): Promise<void> {
    if (request.method === 'OPTIONS') return;
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    const resolved = key && looksLikeApiKey(key) ? await resolveKey(db, key) : null;
    if (!resolved) {
      throw new PayframeError('INVALID_API_KEY', key ? 'Invalid API key provided.' : 'No API key provided: send it in the X-Api-Key header.');
    }
    request.auth = resolved;

    if (resolved.mode === 'live' && request.protocol !== 'https') {
      throw new PayframeError('HTTPS_REQUIRED');
    }
    const config = request.routeOptions.config;
    if (!request.is404) {
      if (resolved.kind === 'publishable' && config.access !== 'publishable') {
        throw new PayframeError('PUBLISHABLE_KEY_NOT_ALLOWED');
      }
      if (resolved.mode === 'live' && config.testOnly) {
        throw new PayframeError('LIVE_MODE_NOT_ALLOWED', 'Test helpers accept test-mode secret keys only.');
      }
      if (resolved.mode === 'live' && config.movesMoney && !liveEnabled) {
        throw new PayframeError('LIVE_MODE_NOT_ALLOWED', 'Live mode is not enabled on this server: no acquirer is configured.');
      }
    }
    if (request.is404) {
      throw new PayframeError('ROUTE_NOT_FOUND');
    }
    if (config.methodNotAllowed) {
      throw new PayframeError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on this URL.`);
    }
  };
}
