import { ChargeListSchema, ErrorBodySchema, ListChargesQuerySchema, ListRefundsQuerySchema, RefundListSchema } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { listCharges, listRefunds } from '../../services/lists.ts';
import { callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './refuse-other-methods.ts';

/** Secret realm: lists of charges and refunds, newest first, keyset paginated (docs/api.md, "Lists"). */
export function listRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/charges',
      { schema: { summary: 'List charges', querystring: ListChargesQuerySchema, response: { 200: ChargeListSchema, default: ErrorBodySchema } } },
      async (request) => store.read((db) => listCharges(db, deps, callerOf(request, deps.clock), request.query)),
    );
    api.get(
      '/refunds',
      { schema: { summary: 'List refunds', querystring: ListRefundsQuerySchema, response: { 200: RefundListSchema, default: ErrorBodySchema } } },
      async (request) => store.read((db) => listRefunds(db, callerOf(request, deps.clock), request.query)),
    );
    refuseOtherMethods(app, '/refunds', ['GET']);
  };
}
