import { ErrorBodySchema, EventListSchema, EventSchema, ListEventsQuerySchema, ResourceIdParamsSchema } from '@payframe/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { retrieveEvent } from '../../services/events.ts';
import { listEvents } from '../../services/lists.ts';
import { callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './refuse-other-methods.ts';

/** Events are sent as the bytes recorded with the change, so every reader gets the same text. */
function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Secret realm: the events of the key's account and mode (docs/events.md). */
export function eventRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/events',
      { schema: { summary: 'List events', querystring: ListEventsQuerySchema, response: { 200: EventListSchema, default: ErrorBodySchema } } },
      async (request, reply) => sendJson(reply, await store.read((db) => listEvents(db, callerOf(request, deps.clock), request.query))),
    );
    refuseOtherMethods(app, '/events', ['GET']);
    api.get(
      '/events/:id',
      { schema: { summary: 'Retrieve an event', params: ResourceIdParamsSchema, response: { 200: EventSchema, default: ErrorBodySchema } } },
      async (request, reply) => sendJson(reply, await store.read((db) => retrieveEvent(db, callerOf(request, deps.clock), request.params.id))),
    );
    refuseOtherMethods(app, '/events/:id', ['GET']);
  };
}
