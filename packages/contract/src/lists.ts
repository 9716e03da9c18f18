import { z } from 'zod';
import { ChargeSchema, ChargeStatusSchema } from './charges.ts';
import { integerBounds, integerField, text } from './fields.ts';
import { RefundSchema } from './refunds.ts';

export const MAX_LIST_LIMIT = 100;
export const DEFAULT_LIST_LIMIT = 10;

const LIMIT_ERROR = `must be an integer from 1 to ${MAX_LIST_LIMIT}`;
const ListLimitSchema = integerField(LIMIT_ERROR)
  .pipe(z.number().int({ error: LIMIT_ERROR }).min(1, { error: LIMIT_ERROR }).max(MAX_LIST_LIMIT, { error: LIMIT_ERROR }))
  .meta(integerBounds(1, MAX_LIST_LIMIT))
  .default(DEFAULT_LIST_LIMIT);

/** 9999-12-31T23:59:59Z: past it a time is no date, and more digits are no integer a database column holds. */
const MAX_EPOCH_SECONDS = 253_402_300_799;
const EPOCH_ERROR = 'must be a time in epoch seconds';
const EpochSecondsSchema = integerField(EPOCH_ERROR)
  .pipe(z.number().int({ error: EPOCH_ERROR }).max(MAX_EPOCH_SECONDS, { error: EPOCH_ERROR }))
  .meta(integerBounds(0, MAX_EPOCH_SECONDS));

/** `created[gte]=…&created[lt]=…` arrive bracketed; the body parser's qs turns them into this object. */
export const CreatedRangeSchema = z.strictObject(
  { gte: EpochSecondsSchema.optional(), lt: EpochSecondsSchema.optional() },
  { error: 'must be given as created[gte] and created[lt] in epoch seconds' },
);

/** The keyset cursor parameters every list takes. Any other name is refused (PARAMETER_UNKNOWN), as everywhere. */
export const listPageShape = {
  limit: ListLimitSchema,
  starting_after: text(255).optional(),
  ending_before: text(255).optional(),
};

/** One cursor at a time: a page is either older than one object or newer than another. */
export function oneCursor<T extends z.ZodType<{ starting_after?: string | undefined; ending_before?: string | undefined }>>(schema: T) {
  return schema.refine((query) => query.starting_after === undefined || query.ending_before === undefined, {
    error: 'cannot be combined with starting_after',
    path: ['ending_before'],
  });
}

export const ListPageQuerySchema = oneCursor(z.strictObject(listPageShape));
export type ListPageQuery = z.infer<typeof ListPageQuerySchema>;

/** The charge list's parameters, for lists that add their own (the dashboard's `mode`). */
export const listChargesShape = {
  ...listPageShape,
  status: z.enum(ChargeStatusSchema.options, { error: `must be one of ${ChargeStatusSchema.options.join(', ')}` }).optional(),
  created: CreatedRangeSchema.optional(),
  txn_reference: text(255).optional(),
  /** Matched case-insensitively, so it is compared lower case. */
  email: z
    .email({ error: 'must be an e-mail address' })
    .max(254, { error: 'must be at most 254 characters' })
    .transform((email) => email.toLowerCase())
    .optional(),
  last4: z
    .string({ error: 'must be 4 digits' })
    .regex(/^\d{4}$/, { error: 'must be 4 digits' })
    .optional(),
};

export const ListChargesQuerySchema = oneCursor(z.strictObject(listChargesShape));
export type ListChargesQuery = z.infer<typeof ListChargesQuerySchema>;

export const ListRefundsQuerySchema = oneCursor(z.strictObject({ ...listPageShape, charge: text(255).optional() }));
export type ListRefundsQuery = z.infer<typeof ListRefundsQuerySchema>;

/** The envelope of every list answer: one page, newest first. */
export function listSchema<T extends z.ZodType>(item: T) {
  return z.object({
    type: z.literal('list'),
    /** The path that was listed, e.g. `/v2/charges`. */
    url: z.string(),
    /** Whether more objects remain in the direction of the page. */
    has_more: z.boolean(),
    data: z.array(item),
  });
}
export type List<T> = z.infer<ReturnType<typeof listSchema<z.ZodType<T>>>>;

export const ChargeListSchema = listSchema(ChargeSchema).meta({ id: 'ChargeList' });
export type ChargeList = z.infer<typeof ChargeListSchema>;

export const RefundListSchema = listSchema(RefundSchema).meta({ id: 'RefundList' });
export type RefundList = z.infer<typeof RefundListSchema>;
