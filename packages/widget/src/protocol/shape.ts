// A plain-data form of the frame's zod schemas, and its checker: the build replaces the schemas with
// their description (see frame-shapes.ts), so the frame parses every message without bundling zod.

export type Shape =
  | { type: 'object'; shape: Record<string, Shape>; strict: boolean }
  | { type: 'optional'; of: Shape }
  | { type: 'string'; min?: number; max?: number; patterns?: Array<[source: string, flags: string]> }
  | { type: 'number' | 'boolean' | 'unknown' }
  | { type: 'values'; values: Array<string | number | boolean | null> }
  | { type: 'union'; of: Shape[] };

declare const output: unique symbol;
/** A shape that remembers the zod output type it was described from, so parsed data keeps its type. */
export type ShapeOf<T> = Shape & { readonly [output]?: T };

export type Checked<T> = { success: true; data: T } | { success: false; issue: { path: string[]; message: string } };

// Fields declared only: a class field would make the es2020 build carry defineProperty helpers.
class Refusal {
  declare readonly path: string[];
  declare readonly message: string;
  constructor(path: string[], message: string) {
    this.path = path;
    this.message = message;
  }
}

/** Like zod's safeParse: the first issue with its path, and non-strict objects lose the keys they do not name. */
export function check<T>(shape: ShapeOf<T>, value: unknown): Checked<T> {
  try {
    return { success: true, data: parse(shape, value, []) as T };
  } catch (error) {
    if (error instanceof Refusal) return { success: false, issue: { path: error.path, message: error.message } };
    throw error;
  }
}

/** Own keys only: `toString` or `__proto__` must not pass as a key the shape names. (Object.hasOwn is newer than the frame's es2020.) */
function own(object: object, key: string): boolean {
  return Object.hasOwn(object, key);
}

function parse(shape: Shape, value: unknown, path: string[]): unknown {
  const refuse = (message: string): never => {
    throw new Refusal(path, message);
  };
  switch (shape.type) {
    case 'unknown':
      return value;
    case 'optional':
      return value === undefined ? value : parse(shape.of, value, path);
    case 'values':
      return shape.values.includes(value as string) ? value : refuse('is not an allowed value');
    case 'union':
      for (const option of shape.of) {
        const result = check(option, value);
        if (result.success) return result.data;
      }
      return refuse('matches no allowed form');
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return refuse('must be an object');
      const input = value as Record<string, unknown>;
      const parsed: Record<string, unknown> = {};
      for (const key of Object.keys(input)) if (shape.strict && !own(shape.shape, key)) throw new Refusal([...path, key], 'is not allowed');
      for (const [key, inner] of Object.entries(shape.shape)) {
        if (!own(input, key) && inner.type !== 'optional') throw new Refusal([...path, key], 'is required');
        // A key given as undefined is left out: the same data as zod's output, which sometimes keeps it.
        const result = parse(inner, input[key], [...path, key]);
        if (result !== undefined) parsed[key] = result;
      }
      return parsed;
    }
    case 'string':
      if (typeof value !== 'string') return refuse('must be a string');
      if (value.length < (shape.min ?? 0)) refuse('is too short');
      if (value.length > (shape.max ?? Infinity)) refuse('is too long');
      for (const [source, flags] of shape.patterns ?? []) if (!new RegExp(source, flags).test(value)) refuse('has an invalid format');
      return value;
    case 'number':
      return Number.isFinite(value) ? value : refuse('must be a number');
    default:
      return typeof value === shape.type ? value : refuse(`must be a ${shape.type}`);
  }
}
