import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointBodySchema,
  DeletedWebhookEndpointSchema,
  ErrorBodySchema,
  ListPageQuerySchema,
  ResourceIdParamsSchema,
  UpdateWebhookEndpointBodySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
} from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { createEndpoint, deleteEndpoint, listEndpoints, retrieveEndpoint, updateEndpointFields, vetEndpointUrl } from '../../services/webhook-endpoints.ts';
import { idempotent } from '../idempotency.ts';
import { callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './refuse-other-methods.ts';

/** Secret realm: a merchant's webhook endpoints, per account and mode. */
export function webhookEndpointRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/webhook_endpoints',
      {
        schema: {
          summary: 'Create a webhook endpoint (its signing secret is in this answer only)',
          body: CreateWebhookEndpointBodySchema,
          response: { 200: CreatedWebhookEndpointSchema, default: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request, deps.clock);
        await vetEndpointUrl(caller.mode, request.body.url);
        return idempotent(store, deps, request, reply, (tx) => createEndpoint(tx, deps, caller, request.body));
      },
    );
    api.get(
      '/webhook_endpoints',
      {
        schema: { summary: 'List webhook endpoints', querystring: ListPageQuerySchema, response: { 200: WebhookEndpointListSchema, default: ErrorBodySchema } },
      },
      async (request) => store.read((db) => listEndpoints(db, callerOf(request, deps.clock), request.query)),
    );
    refuseOtherMethods(app, '/webhook_endpoints', ['GET', 'POST']);

    api.get(
      '/webhook_endpoints/:id',
      {
        schema: { summary: 'Retrieve a webhook endpoint', params: ResourceIdParamsSchema, response: { 200: WebhookEndpointSchema, default: ErrorBodySchema } },
      },
      async (request) => store.read((db) => retrieveEndpoint(db, callerOf(request, deps.clock), request.params.id)),
    );
    api.post(
      '/webhook_endpoints/:id',
      {
        schema: {
          summary: 'Update a webhook endpoint: its URL, events, description, or whether it is disabled',
          params: ResourceIdParamsSchema,
          body: UpdateWebhookEndpointBodySchema,
          response: { 200: WebhookEndpointSchema, default: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request, deps.clock);
        if (request.body.url !== undefined) await vetEndpointUrl(caller.mode, request.body.url);
        return idempotent(store, deps, request, reply, (tx) => updateEndpointFields(tx, caller, request.params.id, request.body));
      },
    );
    api.delete(
      '/webhook_endpoints/:id',
      {
        schema: {
          summary: 'Delete a webhook endpoint; its pending deliveries end',
          params: ResourceIdParamsSchema,
          response: { 200: DeletedWebhookEndpointSchema, default: ErrorBodySchema },
        },
      },
      async (request) => store.transaction((tx) => deleteEndpoint(tx, deps, callerOf(request, deps.clock), request.params.id)),
    );
    refuseOtherMethods(app, '/webhook_endpoints/:id', ['GET', 'POST', 'DELETE']);
  };
}
