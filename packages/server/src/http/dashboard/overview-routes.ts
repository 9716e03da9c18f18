import { DashboardOverviewQuerySchema, DashboardOverviewSchema, ErrorBodySchema } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { sessionCaller } from '../../services/dashboard-sessions.ts';
import { overview } from '../../services/overview.ts';
import { refuseOtherMethods } from '../routes/refuse-other-methods.ts';
import { sessionOf } from './session-hooks.ts';

/** The home page's figures: the session's account, one mode, one period. */
export function overviewRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(
        '/overview',
        { schema: { querystring: DashboardOverviewQuerySchema, response: { 200: DashboardOverviewSchema, default: ErrorBodySchema } } },
        async (request) => {
          const caller = sessionCaller(sessionOf(request), request.query.mode, deps.clock);
          return store.read((db) => overview(db, caller, request.query.period));
        },
      );
    refuseOtherMethods(app, '/overview', ['GET']);
  };
}
