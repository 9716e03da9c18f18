// Turns a zod schema into a Shape, at build time and in tests. Anything it does not know how to
// describe faithfully throws, so a schema can never lose a rule on its way into the frame.
import type * as core from 'zod/v4/core';
import type { Shape, ShapeOf } from './shape.ts';

type Check = { check: string; format?: string; pattern?: RegExp; minimum?: number; maximum?: number };

/** The keys each kind of definition may have; any other (a string format, coercion, a default…) changes what parses. */
const KNOWN_KEYS: Record<string, string[]> = {
  string: ['type', 'checks'],
  number: ['type', 'checks'],
  boolean: ['type'],
  unknown: ['type'],
  optional: ['type', 'innerType'],
  literal: ['type', 'values'],
  enum: ['type', 'entries'],
  union: ['type', 'options'],
  object: ['type', 'shape', 'catchall'],
  string_format: ['check', 'format', 'pattern', 'error', 'abort'],
  min_length: ['check', 'minimum', 'when', 'error', 'abort'],
  max_length: ['check', 'maximum', 'when', 'error', 'abort'],
};

function ensureKnown(kind: string, def: object): void {
  const unknown = Object.keys(def).filter((key) => !KNOWN_KEYS[kind]?.includes(key));
  if (unknown.length > 0) throw new Error(`shapeOf: ${kind} with ${unknown.join(', ')} is not supported`);
}

function describeString(checks: readonly core.$ZodCheck[]): Shape {
  const shape: Extract<Shape, { type: 'string' }> = { type: 'string' };
  for (const { _zod } of checks) {
    const def = _zod.def as Check;
    ensureKnown(def.check, def);
    if (def.check === 'string_format' && def.format === 'regex' && def.pattern) {
      shape.patterns = [...(shape.patterns ?? []), [def.pattern.source, def.pattern.flags]];
    } else if (def.check === 'min_length' && def.minimum !== undefined) shape.min = def.minimum;
    else if (def.check === 'max_length' && def.maximum !== undefined) shape.max = def.maximum;
    else throw new Error(`shapeOf: string check ${def.check} is not supported`);
  }
  return shape;
}

function describeAny(schema: core.$ZodType): Shape {
  const def = (schema as core.$ZodTypes)._zod.def;
  ensureKnown(def.type, def);
  const checks = def.checks ?? [];
  if (def.type !== 'string' && checks.length > 0) throw new Error(`shapeOf: checks on ${def.type} are not supported`);
  switch (def.type) {
    case 'string':
      return describeString(checks);
    case 'number':
    case 'boolean':
    case 'unknown':
      return { type: def.type };
    case 'optional':
      return { type: 'optional', of: describeAny(def.innerType) };
    case 'literal':
      return { type: 'values', values: [...def.values] as Array<string | number | boolean | null> };
    case 'enum':
      return { type: 'values', values: Object.values(def.entries) };
    case 'union':
      return { type: 'union', of: def.options.map(describeAny) };
    case 'object': {
      const catchall = def.catchall?._zod.def;
      if (catchall && (catchall.type !== 'never' || Object.keys(catchall).length > 1)) throw new Error('shapeOf: a catchall other than never is not supported');
      const shape = Object.fromEntries(Object.entries(def.shape).map(([key, inner]) => [key, describeAny(inner)]));
      return { type: 'object', shape, strict: catchall !== undefined };
    }
    default:
      throw new Error(`shapeOf: ${def.type} schemas are not supported`);
  }
}

export function shapeOf<S extends core.$ZodType>(schema: S): ShapeOf<core.output<S>> {
  return describeAny(schema);
}
