import { z } from 'zod';
import { integerBounds } from './fields.ts';

/** Largest amount accepted, in minor units: keeps every sum far inside a safe integer. */
export const MAX_AMOUNT = 99_999_999;

const AMOUNT_ERROR = 'must be a positive integer of plain digits';

/** A positive integer in minor units, sent as plain digits or (in JSON) as a number. */
export const AmountSchema = z
  .union([z.string().regex(/^\d+$/, { error: AMOUNT_ERROR }), z.number({ error: AMOUNT_ERROR })], { error: AMOUNT_ERROR })
  .transform(Number)
  .pipe(
    z
      .number()
      .int({ error: AMOUNT_ERROR })
      .positive({ error: 'must be a positive integer' })
      .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT}` }),
  )
  .meta(integerBounds(1, MAX_AMOUNT));

const ACTIVE_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** Any active ISO 4217 code, case-insensitive on input, upper case from then on. */
export const CurrencySchema = z
  .string({ error: 'must be an active ISO 4217 currency code' })
  // The shape alone, for the OpenAPI document (which cannot hold the list's refinement).
  .regex(/^[A-Za-z]{3}$/, { error: 'must be an active ISO 4217 currency code' })
  .transform((code) => code.toUpperCase())
  .refine((code) => ACTIVE_CURRENCIES.has(code), { error: 'must be an active ISO 4217 currency code' });
