import { ErrorBodySchema, ResendEventBodySchema, ResourceIdParamsSchema, WebhookDeliveryListSchema } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { eventDeliveries, resendEvent } from '../../services/event-deliveries.ts';
import { idempotent } from '../idempotency.ts';
import { callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './refuse-other-methods.ts';

const deliveriesResponse = { 200: WebhookDeliveryListSchema, default: ErrorBodySchema };

/** Secret realm: how an event's webhooks went, and sending one again. */
export function eventDeliveryRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/events/:id/deliveries',
      { schema: { summary: "List an event's webhook deliveries", params: ResourceIdParamsSchema, response: deliveriesResponse } },
      async (request) => store.read((db) => eventDeliveries(db, callerOf(request, deps.clock), request.params.id)),
    );
    refuseOtherMethods(app, '/events/:id/deliveries', ['GET']);

    api.post(
      '/events/resend/:id',
      {
        schema: {
          summary: 'Queue an event for delivery again, now',
          params: ResourceIdParamsSchema,
          body: ResendEventBodySchema,
          response: deliveriesResponse,
        },
      },
      async (request, reply) => {
        const caller = callerOf(request, deps.clock);
        return idempotent(store, deps, request, reply, (tx) => resendEvent(tx, deps, caller, request.params.id, request.body.endpoint));
      },
    );
    refuseOtherMethods(app, '/events/resend/:id', ['POST']);
  };
}
