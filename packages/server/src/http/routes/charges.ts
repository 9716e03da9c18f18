import { ChargeSchema, CreateChargeBodySchema, ErrorBodySchema, ResourceIdParamsSchema } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cancelCharge, captureCharge } from '../../services/charge-moves.ts';
import { createCharge, retrieveCharge } from '../../services/charges.ts';
import type { ServiceDeps } from '../../services/context.ts';
import type { Store } from '../../storage/db.ts';
import { runMutation, succeeded } from '../mutation.ts';
import { callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './define.ts';

const chargeResponse = { 200: ChargeSchema, default: ErrorBodySchema };

export function chargeRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/charges',
      {
        config: { movesMoney: true },
        schema: { summary: 'Charge a token', body: CreateChargeBodySchema, response: chargeResponse },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        return runMutation(store, request, reply, (tx) => createCharge(tx, deps, caller, request.body));
      },
    );
    refuseOtherMethods(app, '/charges', ['POST'], { movesMoney: true });

    api.get(
      '/charges/:id',
      { schema: { summary: 'Retrieve a charge', params: ResourceIdParamsSchema, response: chargeResponse } },
      async (request) => retrieveCharge(store.db, deps, callerOf(request), request.params.id),
    );
    refuseOtherMethods(app, '/charges/:id', ['GET']);

    api.post(
      '/charges/capture/:id',
      {
        config: { movesMoney: true },
        schema: { summary: 'Capture a pending charge', params: ResourceIdParamsSchema, response: chargeResponse },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        return runMutation(store, request, reply, async (tx) => succeeded(await captureCharge(tx, deps, caller, request.params.id)));
      },
    );
    refuseOtherMethods(app, '/charges/capture/:id', ['POST'], { movesMoney: true });

    api.post(
      '/charges/cancel/:id',
      {
        config: { movesMoney: true },
        schema: { summary: 'Cancel an uncaptured charge', params: ResourceIdParamsSchema, response: chargeResponse },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        return runMutation(store, request, reply, async (tx) => succeeded(await cancelCharge(tx, deps, caller, request.params.id)));
      },
    );
    refuseOtherMethods(app, '/charges/cancel/:id', ['POST'], { movesMoney: true });
  };
}
