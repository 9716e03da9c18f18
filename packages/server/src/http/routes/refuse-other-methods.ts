import { PayframeError } from '@payframe/contract';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { authOf } from '../request-context.ts';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Registers the methods a path does not serve, so that they answer 405 instead of Fastify's 404.
 * Register it in the path's own scope: the key and realm checks come first, and the 405 comes
 * before any body is read.
 */
export function refuseOtherMethods(app: FastifyInstance, url: string, served: HTTPMethods[]): void {
  const others = METHODS.filter((method) => !served.includes(method) && !(method === 'GET' && served.includes('HEAD')));
  app.route({
    method: others,
    url,
    exposeHeadRoute: false,
    schema: { hide: true },
    onRequest: async (request) => {
      // On /v2/tokens, whose POST takes publishable keys: their check comes before the method's.
      if (authOf(request).kind === 'publishable') throw new PayframeError('PUBLISHABLE_KEY_NOT_ALLOWED');
      throw new PayframeError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on this URL.`);
    },
    handler: async () => {
      throw new Error('unreachable: onRequest answers 405');
    },
  });
}
