import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import type { z } from 'zod';

/** Bodies nested from a form or multipart body (body-parsers.ts); a JSON body is never one of them. */
const formBodies = new WeakSet<object>();

export function fromForm<T extends object>(body: T): T {
  formBodies.add(body);
  return body;
}

/** Whether a field's schema is a list, through the wrappers zod puts around it (optional, default, a transform's pipe). */
function isList(schema: z.core.$ZodType): boolean {
  const def = schema._zod.def;
  if (def.type === 'array') return true;
  if (def.type === 'pipe') return isList((def as z.core.$ZodPipeDef).in);
  if ('innerType' in def) return isList(def.innerType as z.core.$ZodType);
  return false;
}

function listFields(body: unknown): string[] {
  const shape = (body as { shape?: Record<string, z.core.$ZodType> } | undefined)?.shape;
  return shape ? Object.keys(shape).filter((name) => isList(shape[name]!)) : [];
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
