import { CreateRefundBodySchema, ErrorBodySchema, RefundSchema, ResourceIdParamsSchema } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { refundCharge, retrieveRefund } from '../../services/charge-moves.ts';
import type { ServiceDeps } from '../../services/context.ts';
import type { Store } from '../../storage/db.ts';
import { runMutation, succeeded } from '../mutation.ts';
import { callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './define.ts';

const refundResponse = { 200: RefundSchema, default: ErrorBodySchema };

export function refundRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    // One path, two meanings: POST takes a charge id, GET a refund id (as the spec has it).
    api.post(
      '/charges/refund/:id',
      {
        config: { movesMoney: true },
        schema: {
          summary: 'Refund a charge, in full or in part',
          params: ResourceIdParamsSchema,
          body: CreateRefundBodySchema,
          response: refundResponse,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { amount } = request.body;
        return runMutation(store, request, reply, async (tx) => succeeded(await refundCharge(tx, deps, caller, request.params.id, amount)));
      },
    );

    api.get(
      '/charges/refund/:id',
      { schema: { summary: 'Retrieve a refund', params: ResourceIdParamsSchema, response: refundResponse } },
      async (request) => retrieveRefund(store.db, callerOf(request), request.params.id),
    );
    refuseOtherMethods(app, '/charges/refund/:id', ['GET', 'POST']);
  };
}
