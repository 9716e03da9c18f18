import type { FastifyContextConfig, FastifyInstance, HTTPMethods } from 'fastify';

const METHODS: HTTPMethods[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Registers the methods a path does not serve, so that they answer 405 (from the auth gate,
 * before any body is read) instead of Fastify's 404.
 */
export function refuseOtherMethods(app: FastifyInstance, url: string, served: HTTPMethods[], config: FastifyContextConfig = {}): void {
  const others = METHODS.filter((method) => !served.includes(method) && !(method === 'GET' && served.includes('HEAD')));
  app.route({
    method: others,
    url,
    config: { ...config, methodNotAllowed: true },
    exposeHeadRoute: false,
    schema: { hide: true },
    handler: async () => {
      throw new Error('unreachable: the auth gate answers 405');
    },
  });
}
