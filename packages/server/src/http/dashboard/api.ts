import cookie from '@fastify/cookie';
import { PayframeError } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ApiKeyCache } from '../../services/api-key-cache.ts';
import type { ServiceDeps, Store } from '../../services/context.ts';
import type { SessionLifetime } from '../../services/dashboard-sessions.ts';
import { noBodyIsNoParameters, registerJsonParser } from '../body-parsers.ts';
import { DASHBOARD_HELMET } from '../routes/dashboard-assets.ts';
import { adminRoutes } from './admin-routes.ts';
import { chargeRoutes } from './charge-routes.ts';
import { overviewRoutes } from './overview-routes.ts';
import { requestLogRoutes } from './request-log-routes.ts';
import { adminsMutate, refuseApiKeys, refuseLiveOverPlainHttp, requireCsrfToken, requireSameOrigin, requireSession } from './session-hooks.ts';
import { sessionRoutes } from './session-routes.ts';
import { teamRoutes } from './team-routes.ts';

export type DashboardOptions = { lifetime: SessionLifetime; publicUrl: () => string | undefined; apiKeys: ApiKeyCache };

/**
 * The dashboard's JSON API (docs/dashboard.md, "The JSON API"): its own scope under /dashboard/api
 * with its own gate (session-hooks.ts), JSON bodies only, the services /v2 uses, and the API's
 * error shape. The cookie plugin lives in this scope alone: cookies mean nothing anywhere else.
 */
export function dashboardApiRoutes(store: Store, deps: ServiceDeps, options: DashboardOptions) {
  return async (app: FastifyInstance) => {
    await app.register(cookie, { hook: 'onRequest' });
    app.decorateRequest('dashboardSession', null);
    // Set on the route's config: helmet's own onRoute hook, at the root, has already run for it.
    app.addHook('onRoute', (route) => {
      route.config = Object.assign(route.config ?? {}, { helmet: DASHBOARD_HELMET });
    });
    app.addHook('onRequest', refuseApiKeys);
    app.addHook('onRequest', requireSession(store, deps.clock, options.lifetime));
    app.addHook('onRequest', refuseLiveOverPlainHttp);
    app.addHook('onRequest', requireSameOrigin(options.publicUrl));
    app.addHook('onRequest', requireCsrfToken);
    app.addHook('onRequest', adminsMutate);
    app.setNotFoundHandler(() => {
      throw new PayframeError('ROUTE_NOT_FOUND', 'Unrecognized request URL.');
    });
    // JSON bodies only: Fastify's own text/plain parser would hand a route a string to reject as 400.
    app.removeContentTypeParser('text/plain');
    app.addContentTypeParser('*', (_request, _payload, done) => {
      done(new PayframeError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type: the dashboard API takes application/json.'), undefined);
    });
    registerJsonParser(app);
    app.addHook('preValidation', noBodyIsNoParameters);

    await app.register(sessionRoutes(store, deps, options.lifetime));
    await app.register(chargeRoutes(store, deps));
    await app.register(adminRoutes(store, deps, options.apiKeys));
    await app.register(overviewRoutes(store, deps));
    await app.register(requestLogRoutes(store, deps));
    await app.register(teamRoutes(store, deps));
  };
}
