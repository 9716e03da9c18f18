import type { FastifyInstance } from 'fastify';
import type { Clock } from '../domain/clock.ts';
import { requestIdTime } from '../ids.ts';
import type { RequestLog } from '../services/request-log.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The response body sent for this request, kept for the request log. */
    loggedResponse: string | undefined;
    /** The parameters as sent, before validation turned them into the route's types. */
    sentQuery: unknown;
    sentBody: unknown;
  }
}

/**
 * Queues every answered /v2 request of a known account and mode for the request log. Callback
 * hooks (an async one costs a promise per request); the work is a push onto a queue, the rest
 * (removing card data, writing) happens in the log's batches.
 */
export function logRequests(api: FastifyInstance, log: RequestLog, clock: Clock): void {
  api.decorateRequest('loggedResponse', undefined);
  api.decorateRequest('sentQuery', undefined);
  api.decorateRequest('sentBody', undefined);
  api.addHook('preValidation', (request, _reply, done) => {
    request.sentQuery = request.query;
    request.sentBody = request.body;
    done();
  });
  api.addHook('onSend', (request, _reply, payload, done) => {
    if (typeof payload === 'string') request.loggedResponse = payload;
    done(null, payload);
  });
  api.addHook('onResponse', (request, reply, done) => {
    const auth = request.auth;
    if (auth && request.method !== 'OPTIONS') {
      const idempotencyKey = request.headers['idempotency-key'];
      log.add({
        id: request.id,
        accountId: auth.accountId,
        mode: auth.mode,
        at: requestIdTime(request.id) ?? clock.now(),
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        durationMs: reply.elapsedTime,
        keyId: auth.keyId,
        idempotencyKey: Array.isArray(idempotencyKey) ? idempotencyKey[0] : idempotencyKey,
        query: request.sentQuery ?? request.query,
        body: request.sentBody ?? request.body,
        response: request.loggedResponse,
      });
    }
    done();
  });
}
