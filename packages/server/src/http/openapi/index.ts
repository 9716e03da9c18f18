import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { finishDocument } from './document.ts';

/**
 * The OpenAPI 3.1 document at GET /v2/openapi.json, generated from the routes' zod schemas, then
 * finished (document.ts) with what the schemas cannot say. The resources carry a registry id
 * (`.meta({ id })` in the contract): responses `$ref` them, and `jsonSchemaTransformObject` emits
 * each under `components.schemas`. Register before the routes, so that swagger sees them.
 */
export async function registerOpenApi(app: FastifyInstance, publicUrl: () => string | undefined = () => undefined): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Payframe API', version: '2' },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
      security: [{ apiKey: [] }],
    },
    // The document describes the /v2 API only: the dashboard's session-cookie API is not part of it.
    transform: (input) => (input.url.startsWith('/v2/') ? jsonSchemaTransform(input) : { schema: { ...input.schema, hide: true }, url: input.url }),
    transformObject: jsonSchemaTransformObject,
  });
  // Finished once, on first request: the routes are all registered by then, and the document never changes.
  let finished: Record<string, unknown> | undefined;
  app.get('/v2/openapi.json', { schema: { hide: true } }, async () => (finished ??= finishDocument(app.swagger() as Record<string, unknown>, publicUrl())));
}
