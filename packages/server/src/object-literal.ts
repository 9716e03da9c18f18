/**
 * A function that answers one object literal whose names are fixed, compiled once for those names:
 * its objects share one shape and are made in one step. Fields added one by one in a loop cost more
 * to make, and to read or JSON.stringify after. The names come from our own code (columns, schema
 * fields), never from a request; each is quoted, and `__proto__` is a computed key, which makes a
 * field of it where a plain one would set the prototype.
 *
 * `fields` pairs each name with the JavaScript expression of its value, over `parameters`;
 * `prelude` runs before the literal (declarations the expressions use).
 */
export function literalFunction<F>(parameters: readonly string[], fields: readonly (readonly [name: string, expression: string])[], prelude = ''): F {
  const entries = fields.map(([name, expression]) => `${name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)}: ${expression}`);
  return new Function(...parameters, `${prelude} return { ${entries.join(', ')} };`) as F;
}
