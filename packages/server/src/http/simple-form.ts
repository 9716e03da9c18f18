/**
 * The form body nearly every client sends (`name=value` and `name[field]=value`, each name once)
 * parsed without qs, which costs several times more on the token and charge requests' bodies. It
 * answers undefined for anything else, and for anything it is not sure of: qs then parses that body
 * with every rule and limit of body-parsers.ts, so the result is always what qs would give
 * (simple-form.test.ts compares the two on generated bodies).
 */

/**
 * A name, or a name and one field, of letters, digits and underscores, beginning with neither digit
 * nor bracket: its brackets as they are sent, literal or escaped (`%5B`, `%5d`). Read from the name
 * as sent, it needs no decoding first, which cost as much as the match on the token request's names.
 */
const SIMPLE_NAME = /^([A-Za-z_][A-Za-z0-9_]*)(?:(?:\[|%5B)([A-Za-z_][A-Za-z0-9_]*)(?:\]|%5D))?$/i;

/** Names of Object.prototype (`__proto__` among them) are left to qs and the checks around it. */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));
const onPrototype = (name: string) => PROTOTYPE_NAMES.has(name);

/** At most this many parameters here: qs counts and refuses past its own limit. */
const MAX_PARTS = 200;

/** A name or value as qs decodes it (`+` is a space); undefined where its escapes do not decode. */
export function decoded(text: string): string | undefined {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
}

export function parseSimpleForm(input: string): Record<string, unknown> | undefined {
  const result: Record<string, unknown> = {};
  const nested = new Set<object>();
  const parts = input.split('&');
  if (parts.length > MAX_PARTS) return undefined;
  for (const part of parts) {
    const equals = part.indexOf('=');
    if (equals <= 0) return undefined;
    // Any other escape or a `+` in the name: qs decodes it.
    const match = SIMPLE_NAME.exec(part.slice(0, equals));
    const value = decoded(part.slice(equals + 1));
    if (!match || value === undefined) return undefined;
    const outer = match[1]!;
    const inner = match[2];
    if (onPrototype(outer)) return undefined;
    // A name seen before is a repeat (qs makes an array of it) unless both are fields of one object.
    const existing = Object.hasOwn(result, outer) ? result[outer] : undefined;
    if (existing !== undefined && (inner === undefined || !nested.has(existing as object))) return undefined;
    if (inner === undefined) {
      result[outer] = value;
      continue;
    }
    if (onPrototype(inner)) return undefined;
    let fields = existing as Record<string, unknown> | undefined;
    if (fields === undefined) {
      fields = {};
      nested.add(fields);
      result[outer] = fields;
    }
    if (Object.hasOwn(fields, inner)) return undefined;
    fields[inner] = value;
  }
  return result;
}
