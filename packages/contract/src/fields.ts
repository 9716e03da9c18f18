import { z } from 'zod';

/** A UTF-16 surrogate without its pair: no character, and stored as U+FFFD, so not what was sent. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text the API can store as it came: U+0000 has no place in it, and PostgreSQL cannot store it (it
 * was a 500 there); a lone surrogate (JSON's `"\ud800"`) would be stored as U+FFFD, so the object
 * read back would differ from the one answered.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}
export const STORABLE_TEXT_ERROR = { error: 'must be text without NUL characters or unpaired surrogates' };

/** Bounded text; form fields arrive as strings, so no coercion is needed. */
export function text(max: number, min = 1) {
  return z
    .string({ error: 'must be a string' })
    .min(min, { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters` })
    .max(max, { error: `must be at most ${max} characters` })
    .refine(isStorableText, STORABLE_TEXT_ERROR);
}

/**
 * Digits sent as a string, or (in JSON) as a number. Every branch says `message`: a union reports
 * the issues of the branch whose type matched, and zod's own wording would quote its pattern.
 */
export function integerField(message: string) {
  return z
    .union([z.string().regex(/^\d+$/, { error: message }), z.number().int({ error: message }).nonnegative({ error: message })], { error: message })
    .transform(Number);
}

/**
 * The parameters of an operation that takes none (a retrieve's query, a cancel's body): every name
 * is unknown. Request schemas are strict objects, so that a misspelled name is refused
 * (PARAMETER_UNKNOWN) rather than ignored: `amout=100` must never refund everything.
 */
export const NoParametersSchema = z.strictObject({});

/**
 * The integer bounds of a field sent as digits or a JSON number, as data the OpenAPI document reads
 * (`x-integer`): JSON Schema cannot see through the zod transform that turns digits into a number.
 */
export function integerBounds(minimum: number, maximum?: number) {
  return { 'x-integer': maximum === undefined ? { minimum } : { minimum, maximum } };
}

/** Ids that begin with their kind: `evt_`, `we_`, then lower-case hex (the time and a random part). */
export function prefixedId(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix}_[0-9a-f]+$`));
}
