import { z } from 'zod';
import { AuthorizationSchema, BrandSchema, FundingSchema, ModeSchema } from './card.ts';
import { isStorableText, STORABLE_TEXT_ERROR, text } from './fields.ts';
import { FIELD_LIMITS } from './limits.ts';

const CARD_NUMBER_ERROR = 'must contain only digits (at most 19)';
const CardNumberSchema = z
  .string({ error: 'must be a string of digits' })
  // As sent, spaces and dashes between the digits allowed: the shape the OpenAPI document shows.
  .regex(/^[\s-]*(?:\d[\s-]*){1,19}$/, { error: CARD_NUMBER_ERROR })
  .transform((number) => number.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\d{1,19}$/, { error: CARD_NUMBER_ERROR }));

const MONTH_ERROR = 'must be a month from 1 to 12';
const YEAR_ERROR = 'must be a four-digit year';
const COUNTRY_ERROR = 'must be an ISO 3166-1 alpha-2 country code';

export const CreateTokenBodySchema = z.strictObject({
  card: z.strictObject(
    {
      number: CardNumberSchema,
      cvc: z.string({ error: 'must be 3 or 4 digits' }).regex(/^\d{3,4}$/, { error: 'must be 3 or 4 digits' }),
      // Written as one or two digits (`3`, `03`, `12`); `012` is no card's month.
      exp_month: z
        .union(
          [
            z.string().regex(/^(?:0?[1-9]|1[0-2])$/, { error: MONTH_ERROR }),
            z.number().int({ error: MONTH_ERROR }).min(1, { error: MONTH_ERROR }).max(12, { error: MONTH_ERROR }),
          ],
          {
            error: MONTH_ERROR,
          },
        )
        .transform(Number),
      exp_year: z
        .union(
          [
            z.string().regex(/^\d{4}$/, { error: YEAR_ERROR }),
            z.number().int({ error: YEAR_ERROR }).min(1000, { error: YEAR_ERROR }).max(9999, { error: YEAR_ERROR }),
          ],
          { error: YEAR_ERROR },
        )
        .transform(Number),
      name: text(FIELD_LIMITS.cardName),
    },
    { error: 'must hold the card fields: card[number], card[cvc], card[exp_month], card[exp_year], card[name]' },
  ),
  address: z
    .strictObject(
      {
        address_line1: text(FIELD_LIMITS.addressLine).optional(),
        address_line2: text(FIELD_LIMITS.addressLine).optional(),
        city: text(FIELD_LIMITS.city).optional(),
        state: text(FIELD_LIMITS.state).optional(),
        zipcode: text(FIELD_LIMITS.zipcode).optional(),
        country: z
          .string({ error: COUNTRY_ERROR })
          .regex(/^[A-Za-z]{2}$/, { error: COUNTRY_ERROR })
          .transform((code) => code.toUpperCase())
          .optional(),
      },
      { error: 'must hold address fields such as address[address_line1] and address[country]' },
    )
    .optional(),
  shopper: z.strictObject(
    {
      /** Required with a secret key; taken from the connection with a publishable key. */
      ip: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }).optional(),
      session_id: text(FIELD_LIMITS.sessionId),
      email: z.email({ error: 'must be an e-mail address' }).max(FIELD_LIMITS.email, { error: `must be at most ${FIELD_LIMITS.email} characters` }),
    },
    { error: 'must hold the shopper fields: shopper[ip], shopper[session_id], shopper[email]' },
  ),
});
export type CreateTokenBody = z.infer<typeof CreateTokenBodySchema>;

const TokenCardSchema = z.object({
  fundingType: FundingSchema,
  country: z.string(),
  last4Digits: z.string(),
  type: z.string(),
  brand: BrandSchema,
  bank: z.string(),
  name: z.string(),
  authorization: AuthorizationSchema,
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  addressCity: z.string().nullable(),
  addressState: z.string().nullable(),
  addressZip: z.string().nullable(),
  addressCountry: z.string().nullable(),
});
export type TokenCard = z.infer<typeof TokenCardSchema>;

export const TokenSchema = z
  .object({
    type: z.literal('token'),
    id: z.uuid(),
    card: TokenCardSchema,
    created: z.number().int(),
    mode: ModeSchema,
  })
  .meta({ id: 'Token' });
export type Token = z.infer<typeof TokenSchema>;

/** The token as embedded in a charge: the same fields without `mode`. */
export const ChargeTokenSchema = TokenSchema.omit({ mode: true }).meta({ id: 'ChargeToken' });
export type ChargeToken = z.infer<typeof ChargeTokenSchema>;

export const ResourceIdParamsSchema = z.object({
  id: z.string({ error: 'must be a string' }).max(255, { error: 'must be at most 255 characters' }).refine(isStorableText, STORABLE_TEXT_ERROR),
});
