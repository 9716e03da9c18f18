import rateLimit from '@fastify/rate-limit';
import { PayframeError } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ApiKeyCache } from '../services/api-key-cache.ts';
import type { ServiceDeps, Store } from '../services/context.ts';
import { requestCounter } from '../services/rate-limits.ts';
import type { RequestLog } from '../services/request-log.ts';
import { authenticate, liveNeedsAcquirer, secretKeyOnly, testModeOnly } from './auth.ts';
import { registerBodyParsers } from './body-parsers.ts';
import { acceptFormListsOfOne } from './form-lists.ts';
import { type RateLimits, rateLimitConfig, sharedRateLimitStore } from './rate-limit.ts';
import { refuseBodyParametersInQuery } from './refuse-body-parameters-in-query.ts';
import { logRequests } from './request-log-hooks.ts';
import { chargeMoveRoutes, chargeReadRoutes } from './routes/charges.ts';
import { eventDeliveryRoutes } from './routes/event-deliveries.ts';
import { eventStreamRoutes } from './routes/event-stream.ts';
import { eventRoutes } from './routes/events.ts';
import { listRoutes } from './routes/lists.ts';
import { refundCreationRoutes, refundReadRoutes } from './routes/refunds.ts';
import { testHelperRoutes } from './routes/test-helpers.ts';
import { tokenCreationRoutes, tokenReadRoutes } from './routes/tokens.ts';
import { webhookEndpointRoutes } from './routes/webhook-endpoints.ts';
import { refuseUndeclaredParameters } from './strict-parameters.ts';

/**
 * The /v2 API as nested scopes, each with the hook of its rule (http/auth.ts has the order):
 *
 *   /v2                 key → HTTPS for live keys → unknown URL; rate limits; body parsers; no body parameter in a POST's URL;
 *                       no parameter an operation does not define (strict-parameters.ts); a form's list of one (form-lists.ts)
 *   ├─ publishable realm  POST /tokens: publishable and secret keys alike
 *   └─ secret realm       refuses publishable keys; reads of tokens, charges and refunds; lists; events and their
 *      │                  stream; webhook endpoints, event deliveries and resend (either mode)
 *      ├─ money           refuses live keys while no acquirer is configured
 *      └─ test helpers    refuses live keys
 */
export function apiRoutes(store: Store, deps: ServiceDeps, limits: RateLimits, keys: ApiKeyCache, requestLog: RequestLog | null = null) {
  return async (api: FastifyInstance) => {
    if (requestLog) logRequests(api, requestLog, deps.clock);
    await registerBodyParsers(api);
    api.addHook('onRequest', authenticate(keys, deps.clock));
    api.addHook('preValidation', refuseBodyParametersInQuery);
    // Every /v2 route is limited, unless it opts out (the event stream); which keys count, and how
    // much, is decided per request.
    const apiRateLimit = rateLimitConfig(limits);
    api.addHook('onRoute', (route) => {
      route.config = { ...route.config, rateLimit: route.config?.rateLimit === false ? false : apiRateLimit };
      refuseUndeclaredParameters(route);
      acceptFormListsOfOne(route);
    });
    const counter = requestCounter(store, deps.clock);
    api.addHook('onClose', () => counter.close());
    await api.register(rateLimit, { global: false, store: sharedRateLimitStore(counter) });
    api.setNotFoundHandler(() => {
      throw new PayframeError('ROUTE_NOT_FOUND', 'Unrecognized request URL.');
    });

    await api.register(tokenCreationRoutes(store, deps));
    await api.register(async (secret) => {
      secret.addHook('onRequest', secretKeyOnly);
      await secret.register(tokenReadRoutes(store, deps));
      await secret.register(chargeReadRoutes(store, deps));
      await secret.register(refundReadRoutes(store, deps));
      await secret.register(listRoutes(store, deps));
      await secret.register(eventRoutes(store, deps));
      await secret.register(eventStreamRoutes(store));
      await secret.register(webhookEndpointRoutes(store, deps));
      await secret.register(eventDeliveryRoutes(store, deps));
      await secret.register(async (money) => {
        money.addHook('onRequest', liveNeedsAcquirer(deps.liveAcquirer !== null));
        await money.register(chargeMoveRoutes(store, deps));
        await money.register(refundCreationRoutes(store, deps));
      });
      await secret.register(async (helpers) => {
        helpers.addHook('onRequest', testModeOnly);
        await helpers.register(testHelperRoutes(store, deps, keys));
      });
    });
  };
}
