import fastJsonStringify from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { $ZodType, type $ZodTypes } from 'zod/v4/core';
import { literalFunction } from '../object-literal.ts';

type Picker = (value: unknown) => unknown;

const asIs: Picker = (value) => value;

/**
 * Every declared field in one object literal (object-literal.ts). A field left undefined is written
 * by no one: JSON.stringify skips it, as if it were not there.
 */
function objectPicker(fields: readonly [string, Picker][]): Picker {
  const pickers = fields.map(([, picker]) => picker);
  const make = literalFunction<(value: Record<string, unknown>, pickers: readonly Picker[]) => unknown>(
    ['value', 'pickers'],
    fields.map(([name, picker], i) => {
      const read = `value[${JSON.stringify(name)}]`;
      return [name, picker === asIs ? read : `(field = ${read}) === undefined ? undefined : pickers[${i}](field)`];
    }),
    'let field;',
  );
  return (value) => make(value as Record<string, unknown>, pickers);
}

/**
 * A function that copies out of a response what its schema declares and nothing else, or null
 * where the schema needs zod itself (unions, transforms, defaults…). Values are not
 * checked: the views that make responses are typed from these same schemas.
 */
function pickerOf(schema: $ZodType): Picker | null {
  const def = (schema as $ZodTypes)._zod.def;
  switch (def.type) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'literal':
    case 'enum':
    case 'null':
      return asIs;
    case 'nullable':
    case 'optional': {
      const inner = pickerOf(def.innerType as $ZodType);
      return inner && ((value) => (value === null || value === undefined ? value : inner(value)));
    }
    case 'array': {
      const element = pickerOf(def.element as $ZodType);
      return element && ((value) => (value as unknown[]).map(element));
    }
    case 'record': {
      // fromEntries defines each key as data, so a `__proto__` key stays a key.
      const entry = pickerOf(def.valueType as $ZodType);
      return entry && ((value) => Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, field]) => [key, entry(field)])));
    }
    case 'object': {
      if (def.catchall) return null;
      const fields: [string, Picker][] = [];
      for (const [name, field] of Object.entries(def.shape as Record<string, $ZodType>)) {
        const picker = pickerOf(field);
        if (!picker) return null;
        fields.push([name, picker]);
      }
      return objectPicker(fields);
    }
    default:
      return null;
  }
}

/**
 * The schema's JSON Schema as a writer, not a check, reads it: no `required` (as the picker does, a
 * field left undefined is left out) and no `additionalProperties: false` (undeclared fields are not
 * written either way, and a nullable object's branch would otherwise refuse a value that has some).
 */
function forWriting(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forWriting);
  if (typeof node !== 'object' || node === null) return node;
  const kept = Object.entries(node).filter(([key, value]) => key !== 'required' && !(key === 'additionalProperties' && value === false));
  return Object.fromEntries(kept.map(([key, value]) => [key, forWriting(value)]));
}

/**
 * For a schema the picker can follow, fast-json-stringify's writer of its JSON Schema: it writes
 * the declared fields straight into the text, where the picker made an object for JSON.stringify
 * to walk again. Both write the same text (serializer.test.ts).
 */
export function compiledWriter(schema: $ZodType): ((data: unknown) => string) | null {
  if (!pickerOf(schema)) return null;
  return fastJsonStringify(forWriting(z.toJSONSchema(schema as z.ZodType, { io: 'output' })) as Parameters<typeof fastJsonStringify>[0]);
}

/**
 * Responses written with only the declared fields, a fraction of the cost of zod encoding each
 * response against its schema; schemas the picker cannot follow keep zod's.
 */
export const serializerCompiler: typeof zodSerializerCompiler = (routeSchema) => {
  const writer = routeSchema.schema instanceof $ZodType ? compiledWriter(routeSchema.schema) : null;
  return writer ?? zodSerializerCompiler(routeSchema);
};

/** The picker's text, which `compiledWriter` must equal: for the tests. */
export function pickedText(schema: $ZodType, data: unknown): string | undefined {
  const picker = pickerOf(schema);
  return picker ? JSON.stringify(picker(data)) : undefined;
}
