import { PayframeError } from '@payframe/contract';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

const NONE: ReadonlySet<string> = new Set();
const namesBySchema = new WeakMap<object, ReadonlySet<string>>();

/** The top-level parameter names of a route's body schema (a zod object), lower-cased, worked out once per schema. */
function bodyParameterNames(schema: unknown): ReadonlySet<string> {
  if (typeof schema !== 'object' || schema === null) return NONE;
  let names = namesBySchema.get(schema);
  if (!names) {
    const shape = (schema as { shape?: Record<string, unknown> }).shape;
    names = shape ? new Set(Object.keys(shape).map((name) => name.toLowerCase())) : NONE;
    namesBySchema.set(schema, names);
  }
  return names;
}

/**
 * A POST's parameters are read from its body only, so one sent in the URL would be ignored: a
 * refund asked as `?amount=50` would refund the whole charge. The query takes no such name, so it
 * is PARAMETER_UNKNOWN as any other name the query does not take (strict-parameters.ts), but refused
 * here, with a message that says where it belongs. A callback hook of the body's step (after the
 * route and method), run on every /v2 request.
 */
export function refuseBodyParametersInQuery(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.method !== 'POST' || !request.url.includes('?')) {
    done();
    return;
  }
  const names = bodyParameterNames(request.routeOptions.schema?.body);
  // In any case: `?AMOUNT=50` is as surely a refund amount meant for the body.
  const misplaced = Object.keys(request.query as Record<string, unknown>).find((name) => names.has(name.toLowerCase()));
  if (misplaced === undefined) {
    done();
    return;
  }
  done(
    new PayframeError('PARAMETER_UNKNOWN', `Send ${misplaced} in the request body: a POST's parameters are not read from the URL.`, { parameter: misplaced }),
  );
}
