import { PayframeError } from '@payframe/contract';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/**
 * A POST's parameters are its body's. One sent in the URL instead would be ignored, and a refund
 * asked as `?amount=50` would refund the whole charge: refused, with the first such name. A callback
 * hook of the body's step (after the route and method), run on every /v2 request.
 */
export function refuseQueryOnPost(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.method !== 'POST' || !request.url.includes('?')) return done();
  const [name] = Object.keys(request.query as Record<string, unknown>);
  if (name === undefined) return done();
  // Named when it is a name our parameters could have; any other text stays out of the answer.
  const parameter = /^[a-z][a-z0-9_]{0,63}$/i.test(name) ? { parameter: name } : {};
  done(new PayframeError('PARAMETER_INVALID', 'Send the parameters of a POST in its body, not in the URL.', parameter));
}
