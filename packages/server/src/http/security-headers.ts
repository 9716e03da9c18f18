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
    // Lower case, as fastify keeps a reply's headers: one entry per name whoever sets it.
    setHeader: (name: string, value: string | number) => headers.push([name.toLowerCase(), String(value)]),
    // X-Powered-By: Node's HTTP server never sets it.
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Helmet's options a JSON answer keeps: no MIME sniffing, no referrer, HSTS and its resource
 * policy. The rest (a content security policy, framing, DNS prefetching, download and XSS-filter
 * switches, origin clustering, opener isolation) only mean something to a page a browser renders,
 * and each header costs the server and every client on every answer.
 */
const JSON_ANSWERS: HelmetOptions = {
  contentSecurityPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/**
 * The headers every answer starts with, set in the first onRequest hook, so that errors raised by
 * any later hook carry them too (fastify keeps a reply's headers for its error answer): `Cache-Control:
 * no-store` (a route that may be cached says so itself, and its own value wins), the `Request-Id`,
 * and helmet's headers as @fastify/helmet would set them, computed once per set of options instead
 * of rebuilding helmet per request. A route that serves a page declares its `helmet` options and
 * gets helmet's whole set with them on top; every other route answers JSON (or a script) and gets
 * the JSON subset. They go on fastify's reply, not on Node's response: a response with no header of
 * its own takes all of them in one pass at `writeHead`, where headers set on it one by one are
 * checked as each is set and copied again when the reply's own are added.
 */
export function registerAnswerHeaders(app: FastifyInstance, defaults: HelmetOptions): void {
  const base = helmetHeaders({ ...(defaults as object), ...(JSON_ANSWERS as object) } as HelmetOptions);
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
  // A callback hook: an async one costs a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('cache-control', 'no-store');
    reply.header('request-id', request.id);
    const own = request.routeOptions.config.helmet;
    for (const [name, value] of own ? headersOf(own) : base) reply.header(name, value);
    done();
  });
}
