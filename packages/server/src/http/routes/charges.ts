import {
  CaptureChargeBodySchema,
  ChargeSchema,
  CreateChargeBodySchema,
  ErrorBodySchema,
  ResourceIdParamsSchema,
  UpdateChargeBodySchema,
} from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cancelCharge, captureCharge } from '../../services/capture.ts';
import { updateCharge } from '../../services/charge-metadata.ts';
import { createCharge, retrieveCharge } from '../../services/charges.ts';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { idempotent } from '../idempotency.ts';
import { callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './refuse-other-methods.ts';

const chargeResponse = { 200: ChargeSchema, default: ErrorBodySchema };

/** Secret realm, money scope: creating, capturing and cancelling charges. */
export function chargeMoveRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post('/charges', { schema: { summary: 'Charge a token', body: CreateChargeBodySchema, response: chargeResponse } }, async (request, reply) => {
      const caller = callerOf(request, deps.clock);
      return idempotent(store, deps, request, reply, (tx) => createCharge(tx, deps, caller, request.body));
    });
    refuseOtherMethods(app, '/charges', ['GET', 'POST']);

    api.post(
      '/charges/capture/:id',
      {
        schema: {
          summary: 'Capture a pending charge, in full or in part',
          params: ResourceIdParamsSchema,
          body: CaptureChargeBodySchema,
          response: chargeResponse,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request, deps.clock);
        return idempotent(store, deps, request, reply, (tx) => captureCharge(tx, deps, caller, request.params.id, request.body.amount));
      },
    );
    refuseOtherMethods(app, '/charges/capture/:id', ['POST']);

    api.post(
      '/charges/cancel/:id',
      { schema: { summary: 'Cancel an uncaptured charge', params: ResourceIdParamsSchema, response: chargeResponse } },
      async (request, reply) => {
        const caller = callerOf(request, deps.clock);
        return idempotent(store, deps, request, reply, (tx) => cancelCharge(tx, deps, caller, request.params.id));
      },
    );
    refuseOtherMethods(app, '/charges/cancel/:id', ['POST']);
  };
}

/** Secret realm: reading a charge, and changing its metadata (no money moves, so either mode). */
export function chargeReadRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get('/charges/:id', { schema: { summary: 'Retrieve a charge', params: ResourceIdParamsSchema, response: chargeResponse } }, async (request) =>
      store.read((db) => retrieveCharge(db, deps, callerOf(request, deps.clock), request.params.id)),
    );
    api.post(
      '/charges/:id',
      { schema: { summary: "Update a charge's metadata", params: ResourceIdParamsSchema, body: UpdateChargeBodySchema, response: chargeResponse } },
      async (request, reply) => {
        const caller = callerOf(request, deps.clock);
        return idempotent(store, deps, request, reply, (tx) => updateCharge(tx, deps, caller, request.params.id, request.body));
      },
    );
    refuseOtherMethods(app, '/charges/:id', ['GET', 'POST']);
  };
}
