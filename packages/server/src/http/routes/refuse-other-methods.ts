import type { IncomingMessage } from 'node:http';
import { PayframeError } from '@payframe/contract';
import type { FastifyInstance, HTTPMethods } from 'fastify';

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'TRACE'];

/** A method no route serves: what the router is asked for in place of a method it does not know. */
const STAND_IN = 'TRACE';
const sentMethod = Symbol('payframe.sentMethod');
type Aliased = IncomingMessage & { [sentMethod]?: string };

/**
 * Every other method Node's parser accepts (WebDAV's PROPFIND, QUERY, PURGE, …) answers as TRACE
 * does: 405 with `Allow` on a known URL, after the same key and realm checks, and 404 elsewhere.
 * Fastify routes only the methods it knows, and answers 404 to the rest; registering each of them
 * on every URL would cost each start more than all the other routes together. The router is asked
 * for TRACE instead, and the request gets its own method back before the first hook runs.
 */
export function refuseUnknownMethods(app: FastifyInstance): void {
  // OPTIONS is the CORS preflight's; QUERY, which Fastify knows too, goes the way of the others.
  const routed = new Set<string>([...METHODS, 'OPTIONS']);
  app.server.prependListener('request', (raw: Aliased) => {
    if (raw.method === undefined || routed.has(raw.method)) return;
    raw[sentMethod] = raw.method;
    raw.method = STAND_IN;
  });
  app.addHook('onRequest', (request, _reply, done) => {
    const raw: Aliased = request.raw;
    if (raw[sentMethod] !== undefined) raw.method = raw[sentMethod];
    done();
  });
}

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
