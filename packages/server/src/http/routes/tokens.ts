import { CreateTokenBodySchema, ErrorBodySchema, PayframeError, ResourceIdParamsSchema, TokenSchema } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { createToken, retrieveToken } from '../../services/tokens.ts';
import { idempotent } from '../idempotency.ts';
import { authOf, callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './refuse-other-methods.ts';

const tokenResponse = { 200: TokenSchema, default: ErrorBodySchema };

/** Publishable realm: the widget creates tokens with the merchant's publishable key. */
export function tokenCreationRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    app
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/tokens',
        { schema: { summary: 'Create a single-use card token', body: CreateTokenBodySchema, response: tokenResponse } },
        async (request, reply) => {
          // The widget's requests carry no shopper IP: the connection's (through trusted proxies) is the truth.
          const shopperIp = authOf(request).kind === 'publishable' ? request.ip : request.body.shopper.ip;
          if (!shopperIp) {
            throw new PayframeError('PARAMETER_MISSING', 'Missing required parameter: shopper.ip', { parameter: 'shopper.ip' });
          }
          const caller = callerOf(request, deps.clock);
          return idempotent(store, deps, request, reply, (tx) => createToken(tx, deps, caller, request.body, shopperIp));
        },
      );
    refuseOtherMethods(app, '/tokens', ['POST']);
  };
}

/** Secret realm. */
export function tokenReadRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    app
      .withTypeProvider<ZodTypeProvider>()
      .get('/tokens/:id', { schema: { summary: 'Retrieve a token', params: ResourceIdParamsSchema, response: tokenResponse } }, async (request) =>
        store.read((db) => retrieveToken(db, callerOf(request, deps.clock), request.params.id)),
      );
    refuseOtherMethods(app, '/tokens/:id', ['GET']);
  };
}
