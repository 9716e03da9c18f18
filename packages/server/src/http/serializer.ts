import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
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
 * Responses written with JSON.stringify of only the declared fields, a fraction of the cost of
 * zod encoding each response against its schema; schemas the picker cannot follow keep zod's.
 */
export const serializerCompiler: typeof zodSerializerCompiler = (routeSchema) => {
  const picker = routeSchema.schema instanceof $ZodType ? pickerOf(routeSchema.schema) : null;
  if (!picker) return zodSerializerCompiler(routeSchema);
  return (data) => JSON.stringify(picker(data));
};
