import { CreateRefundBodySchema, ErrorBodySchema, RefundSchema, ResourceIdParamsSchema } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { refundCharge, retrieveRefund } from '../../services/refunds.ts';
import { idempotent } from '../idempotency.ts';
import { callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './refuse-other-methods.ts';

const refundResponse = { 200: RefundSchema, default: ErrorBodySchema };

// One path, two meanings: POST takes a charge id, GET a refund id (as the spec has it).

/** Secret realm, money scope. */
export function refundCreationRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().post(
      '/charges/refund/:id',
      {
        schema: {
          summary: 'Refund a charge, in full or in part',
          params: ResourceIdParamsSchema,
          body: CreateRefundBodySchema,
          response: refundResponse,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request, deps.clock);
        return idempotent(store, deps, request, reply, (tx) => refundCharge(tx, deps, caller, request.params.id, request.body));
      },
    );
  };
}

/** Secret realm. The path's other methods answer 405 from here: reading is what every secret key may do. */
export function refundReadRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    app
      .withTypeProvider<ZodTypeProvider>()
      .get('/charges/refund/:id', { schema: { summary: 'Retrieve a refund', params: ResourceIdParamsSchema, response: refundResponse } }, async (request) =>
        store.read((db) => retrieveRefund(db, callerOf(request, deps.clock), request.params.id)),
      );
    refuseOtherMethods(app, '/charges/refund/:id', ['GET', 'POST']);
  };
}
