// What a merchant passes to mount(), update() and createToken(). The frame parses it again with these
// schemas, described as data at build time (frame-shapes.ts); the loader checks it against names.ts.
import { FIELD_LIMITS } from '@payframe/contract/limits';
import { LOCALES } from '@payframe/contract/locales';
import * as z from 'zod/mini';
import { ADDRESS_MODES, CSS_VALUE, PLACEHOLDER_PROPERTIES, STYLE_PROPERTIES } from './names.ts';

const CssValueSchema = z.string().check(z.regex(CSS_VALUE, 'must be a plain CSS value (no url())'));

function declarations<const P extends readonly string[]>(properties: P) {
  const shape = Object.fromEntries(properties.map((property) => [property, z.optional(CssValueSchema)]));
  return z.strictObject(shape as { [K in P[number]]: z.ZodMiniOptional<typeof CssValueSchema> });
}

export const StyleDeclarationsSchema = declarations(STYLE_PROPERTIES);
export type StyleDeclarations = z.infer<typeof StyleDeclarationsSchema>;

export const StyleSchema = z.strictObject({
  base: z.optional(StyleDeclarationsSchema),
  focus: z.optional(StyleDeclarationsSchema),
  invalid: z.optional(StyleDeclarationsSchema),
  placeholder: z.optional(declarations(PLACEHOLDER_PROPERTIES)),
});
export type Style = z.infer<typeof StyleSchema>;

export const CardOptionsSchema = z.strictObject({
  locale: z.optional(z.enum(LOCALES)),
  style: z.optional(StyleSchema),
  fields: z.optional(
    z.strictObject({
      email: z.optional(z.boolean()),
      address: z.optional(z.enum(ADDRESS_MODES)),
    }),
  ),
  disabled: z.optional(z.boolean()),
});
export type CardOptions = z.infer<typeof CardOptionsSchema>;

/** What the merchant may add to a token request; the frame fills in what it collected itself. */
export const TokenRequestSchema = z.strictObject({
  shopper: z.optional(
    z.strictObject({
      email: z.optional(z.string().check(z.maxLength(FIELD_LIMITS.email))),
      sessionId: z.optional(z.string().check(z.minLength(1), z.maxLength(FIELD_LIMITS.sessionId))),
    }),
  ),
  address: z.optional(
    z.strictObject({
      line1: z.optional(z.string()),
      line2: z.optional(z.string()),
      city: z.optional(z.string()),
      state: z.optional(z.string()),
      postalCode: z.optional(z.string()),
      country: z.optional(z.string()),
    }),
  ),
});
export type TokenRequest = z.infer<typeof TokenRequestSchema>;
