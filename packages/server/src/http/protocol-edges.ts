import { PayframeError } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import { answerOnSocket } from './error-handler.ts';

/**
 * Requests that Node's HTTP server would answer by itself, outside Fastify, with an empty body or
 * none at all, get the API's error shape (or are served) instead:
 * - an HTTP/1.1 request without Host is malformed (RFC 9112 §3.2): 400 here, where Node's own
 *   check (`requireHostHeader`, turned off in app.ts) sends an empty 400;
 * - an `Expect` other than 100-continue is ignored, as RFC 9110 §10.1.1 allows, and the request
 *   served; Node would send an empty 417;
 * - CONNECT (this is no proxy) is 405; Node would close the connection unanswered;
 * - a proxy's `X-Forwarded-Proto: HTTPS` is `https`: a scheme is case-insensitive (RFC 3986 §3.1),
 *   and Fastify's `request.protocol`, which the HTTPS rule and the dashboard's cookie and Origin
 *   checks read, repeats the header as sent.
 */
export function answerProtocolEdges(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const { headers, httpVersionMajor, httpVersionMinor } = request.raw;
    if (headers.host === undefined && httpVersionMajor === 1 && httpVersionMinor >= 1) {
      return done(new PayframeError('PARAMETER_INVALID', 'The request has no Host header.'));
    }
    const forwarded = headers['x-forwarded-proto'];
    if (typeof forwarded === 'string') headers['x-forwarded-proto'] = forwarded.toLowerCase();
    done();
  });
  app.server.on('checkExpectation', (request, response) => app.server.emit('request', request, response));
  app.server.on('connect', (_request, socket) =>
    answerOnSocket(
      socket,
      new PayframeError('METHOD_NOT_ALLOWED', 'CONNECT is not allowed: this server is no proxy.', { headers: { allow: 'GET, HEAD, POST, DELETE, OPTIONS' } }),
    ),
  );
}
