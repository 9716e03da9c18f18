import { PayframeError } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';

/**
 * While the server stops (main.ts), requests already being processed finish; then:
 * - a request that arrives on a connection still open is turned away with 503 SERVICE_UNAVAILABLE
 *   in the API's error shape (Fastify's own closing answer is not), with Retry-After for the client's retry;
 * - every response closes its connection, so connections end as their last request does instead
 *   of idling until the keep-alive timeout, and the stop completes as soon as the work does.
 */
export function turnAwayWhileStopping(app: FastifyInstance, stopping: () => boolean): void {
  // Callback hooks: they run on every request, and an async hook costs a promise each time.
  app.addHook('onRequest', (_request, _reply, done) => {
    if (!stopping()) return done();
    done(new PayframeError('SERVICE_UNAVAILABLE', 'The server is stopping; retry shortly.', { headers: { 'retry-after': '1' } }));
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (stopping()) reply.header('connection', 'close');
    done(null, payload);
  });
}
