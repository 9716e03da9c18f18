import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../services/context.ts';

/** Ready means the database answers, not merely that the process is up. */
export function healthRoutes(db: Db) {
  return async (app: FastifyInstance) => {
    app.get('/healthz', { schema: { hide: true } }, async () => {
      await sql`select 1`.execute(db);
      return { status: 'ok' };
    });
  };
}
