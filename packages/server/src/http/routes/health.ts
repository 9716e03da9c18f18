import type { FastifyInstance } from 'fastify';
import type { Store } from '../../services/context.ts';
import { checkHealth } from '../../services/health.ts';

/** Ready means the database answers, not merely that the process is up. */
export function healthRoutes(store: Store) {
  return async (app: FastifyInstance) => {
    app.get('/healthz', { schema: { hide: true } }, async () => {
      await checkHealth(store);
      return { status: 'ok' };
    });
  };
}
