import { z } from 'zod';

/** U+0000 has no place in any text of the API, and PostgreSQL cannot store it (it was a 500 there). */
export function withoutNul(value: string): boolean {
  return !value.includes('\u0000');
}
export const NUL_ERROR = { error: 'must not contain NUL characters' };

/** Bounded text; form fields arrive as strings, so no coercion is needed. */
export function text(max: number, min = 1) {
  return z
    .string({ error: 'must be a string' })
    .min(min, { error: min === 1 ? 'must not be empty' : `must be at least ${min} characters` })
    .max(max, { error: `must be at most ${max} characters` })
    .refine(withoutNul, NUL_ERROR);
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
