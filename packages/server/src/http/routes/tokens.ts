import { CreateTokenBodySchema, ErrorBodySchema, PayframeError, ResourceIdParamsSchema, TokenSchema } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServiceDeps } from '../../services/context.ts';
import type { Store } from '../../storage/db.ts';
import { createToken, retrieveToken } from '../../services/tokens.ts';
import { runMutation, succeeded } from '../mutation.ts';
import { authOf, callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './define.ts';

export function tokenRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/tokens',
      {
        config: { access: 'publishable' },
        schema: {
          summary: 'Create a single-use card token',
          body: CreateTokenBodySchema,
          response: { 200: TokenSchema, default: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const auth = authOf(request);
        // The widget's requests carry no shopper IP: the connection's (through trusted proxies) is the truth.
        const shopperIp = auth.kind === 'publishable' ? request.ip : request.body.shopper.ip;
        if (!shopperIp) {
          throw new PayframeError('PARAMETER_MISSING', 'Missing required parameter: shopper.ip', { parameter: 'shopper.ip' });
        }
        const caller = callerOf(request);
        return runMutation(store, request, reply, async (tx) => succeeded(await createToken(tx, deps, caller, request.body, shopperIp)));
      },
    );
    refuseOtherMethods(app, '/tokens', ['POST'], { access: 'publishable' });

    api.get(
      '/tokens/:id',
      {
        schema: { summary: 'Retrieve a token', params: ResourceIdParamsSchema, response: { 200: TokenSchema, default: ErrorBodySchema } },
      },
      async (request) => retrieveToken(store.db, callerOf(request), request.params.id),
    );
    refuseOtherMethods(app, '/tokens/:id', ['GET']);
  };
}
