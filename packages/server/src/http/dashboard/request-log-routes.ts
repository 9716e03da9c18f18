import {
  DashboardModeQuerySchema,
  DashboardRequestLogQuerySchema,
  ErrorBodySchema,
  RequestLogDetailSchema,
  RequestLogListSchema,
  ResourceIdParamsSchema,
} from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { sessionCaller } from '../../services/dashboard-sessions.ts';
import { listRequestLogEntries, requestLogDetail } from '../../services/request-log-reads.ts';
import { refuseOtherMethods } from '../routes/refuse-other-methods.ts';
import { sessionOf } from './session-hooks.ts';

/** The request log of the session's account, one mode at a time. */
export function requestLogRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/request_log',
      { schema: { querystring: DashboardRequestLogQuerySchema, response: { 200: RequestLogListSchema, default: ErrorBodySchema } } },
      async (request) => {
        const { mode, ...query } = request.query;
        const caller = sessionCaller(sessionOf(request), mode, deps.clock);
        return store.read((db) => listRequestLogEntries(db, caller, query));
      },
    );
    api.get(
      '/request_log/:id',
      {
        schema: { params: ResourceIdParamsSchema, querystring: DashboardModeQuerySchema, response: { 200: RequestLogDetailSchema, default: ErrorBodySchema } },
      },
      async (request) => {
        const caller = sessionCaller(sessionOf(request), request.query.mode, deps.clock);
        return store.read((db) => requestLogDetail(db, caller, request.params.id));
      },
    );
    refuseOtherMethods(app, '/request_log', ['GET']);
    refuseOtherMethods(app, '/request_log/:id', ['GET']);
  };
}
