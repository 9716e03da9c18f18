import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './registry.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics` on the API port, only when the operator set a token: without one the route does
 * not exist (404, like any unknown path), so a public API port never shows its internals by default.
 * A missing or wrong bearer token is 401.
 */
export function metricsRoute(metrics: Metrics, token: string) {
  const expected = digest(token);
  return async (app: FastifyInstance) => {
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      // Compared as digests: equal lengths for timingSafeEqual, and no timing hint of the token's length.
      if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
        return reply.code(401).header('www-authenticate', 'Bearer realm="payframe-metrics"').type('text/plain; charset=utf-8').send('Unauthorized\n');
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  };
}
