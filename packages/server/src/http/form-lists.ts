import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { type SchemaNode, shapeOf, unwrapped } from './schema-wrappers.ts';

/** Bodies nested from a form or multipart body (body-parsers.ts); a JSON body is never one of them. */
const formBodies = new WeakSet<object>();

export function fromForm<T extends object>(body: T): T {
  formBodies.add(body);
  return body;
}

/** The body's fields whose schema is a list, through the wrappers zod puts around it (optional, default, a transform's pipe). */
function listFields(body: unknown): string[] {
  const shape = shapeOf(body as SchemaNode | undefined) ?? {};
  return Object.keys(shape).filter((name) => unwrapped(shape[name])?.def?.type === 'array');
}

/**
 * A form or multipart body sends a list by repeating its name (`events=a&events=b`, OpenAPI's
 * `form` style with `explode`, as the document says), so a list of one arrives as one value: the
 * value is taken as a list of one. `events[]=a` is a list already. A JSON body's lists are JSON
 * arrays, and a string there stays the string it is (and is refused as one). Added to each route
 * whose body schema has a list, before validation.
 */
export function acceptFormListsOfOne(route: RouteOptions): void {
  const fields = listFields(route.schema?.body);
  if (fields.length === 0) return;
  const hook = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const body = request.body as Record<string, unknown> | undefined;
    if (body && formBodies.has(body)) {
      for (const name of fields) if (typeof body[name] === 'string') body[name] = [body[name]];
    }
    done();
  };
  const existing = route.preValidation;
  route.preValidation = existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook];
}
