import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

declare module 'fastify' {
  interface RouteShorthandOptions {
    /** This route's helmet options, on top of the app's. */
    helmet?: HelmetOptions;
  }
  interface RouteOptions {
    helmet?: HelmetOptions;
  }
  interface FastifyContextConfig {
    helmet?: HelmetOptions;
  }
}

type Headers = readonly (readonly [string, string])[];

/** The headers helmet sets for these options, worked out by running it once on a stand-in response. */
function helmetHeaders(options: HelmetOptions): Headers {
  const headers: [string, string][] = [];
  const response = {
    setHeader: (name: string, value: string | number) => headers.push([name, String(value)]),
    // X-Powered-By: Node's HTTP server never sets it.
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Helmet's headers on every answer, as @fastify/helmet would set them (a route's `helmet` options
 * over the app's), but computed once per set of options instead of rebuilding helmet per request.
 * Set on the raw response in the first onRequest hook, so errors raised by later hooks carry them too.
 */
export function registerSecurityHeaders(app: FastifyInstance, defaults: HelmetOptions): void {
  const base = helmetHeaders(defaults);
  const byOptions = new WeakMap<HelmetOptions, Headers>();
  const headersOf = (own: HelmetOptions): Headers => {
    let headers = byOptions.get(own);
    if (!headers) {
      // HelmetOptions forbids aliases side by side, which a spread cannot show: ours use one name each.
      // Spread as plain objects: typing the spread of two HelmetOptions took the compiler 5 s.
      headers = helmetHeaders({ ...(defaults as object), ...(own as object) } as HelmetOptions);
      byOptions.set(own, headers);
    }
    return headers;
  };
  app.addHook('onRoute', (route) => {
    if (route.helmet) route.config = { ...route.config, helmet: route.helmet };
  });
  app.addHook('onRequest', (request, reply, done) => {
    const own = request.routeOptions.config.helmet;
    for (const [name, value] of own ? headersOf(own) : base) reply.raw.setHeader(name, value);
    done();
  });
}
