/** A zod schema as these helpers read it: loosely, since route schemas arrive untyped from Fastify. */
export type SchemaNode = {
  shape?: Record<string, SchemaNode>;
  def?: { type?: string; in?: SchemaNode; innerType?: SchemaNode };
  safeParse?: (value: unknown) => { success: boolean };
};

/**
 * What a value must be under the wrappers zod puts around a schema: an optional, nullable or
 * default's inner type, a transform's input. Bounded, as route schemas are data from outside.
 */
export function unwrapped(schema: SchemaNode | undefined): SchemaNode | undefined {
  let node = schema;
  for (let depth = 0; node && depth < 8; depth++) {
    const inner = node.def?.in ?? node.def?.innerType;
    if (!inner) return node;
    node = inner;
  }
  return undefined;
}

/** The fields of an object schema, through the pipes and wrappers zod puts around it. */
export function shapeOf(schema: SchemaNode | undefined): Record<string, SchemaNode> | undefined {
  const shape = unwrapped(schema)?.shape;
  return shape && typeof shape === 'object' ? shape : undefined;
}
