import { PayframeError } from '@payframe/contract';
import type { FastifyInstance, HTTPMethods } from 'fastify';

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'];

/**
 * Registers the methods a path does not serve, so that they answer 405, with `Allow`, instead of
 * Fastify's 404. Register it in the path's own scope: the key and realm checks come first, and
 * the 405 comes before any body is read. A served GET serves HEAD too (Fastify's head route).
 */
export function refuseOtherMethods(app: FastifyInstance, url: string, served: HTTPMethods[]): void {
  const allowed = served.includes('GET') && !served.includes('HEAD') ? [...served, 'HEAD'] : served;
  const allow = allowed.join(', ');
  app.route({
    method: METHODS.filter((method) => !allowed.includes(method)),
    url,
    exposeHeadRoute: false,
    schema: { hide: true },
    onRequest: async (request, reply) => {
      // On /v2/tokens, whose POST takes publishable keys: their check comes before the method's.
      // The dashboard's scope has no API key (its session gate has run instead).
      if (request.auth?.kind === 'publishable') throw new PayframeError('PUBLISHABLE_KEY_NOT_ALLOWED');
      reply.header('allow', allow);
      throw new PayframeError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on this URL.`);
    },
    handler: async () => {
      throw new Error('unreachable: onRequest answers 405');
    },
  });
}
