import { z } from 'zod';
import { ModeSchema } from './card.ts';
import { isStorableText, STORABLE_TEXT_ERROR, text } from './fields.ts';
import { MetadataInputSchema, MetadataSchema } from './metadata.ts';
import { AmountSchema, CurrencySchema } from './money.ts';
import { ChargeTokenSchema } from './tokens.ts';

const CHARGE_STATUSES = ['PENDING', 'CHARGE_SUCCESS', 'PARTIALLY_REFUNDED', 'REFUNDED', 'CHARGE_FAILED'] as const;
export const ChargeStatusSchema = z.enum(CHARGE_STATUSES);
export type ChargeStatus = z.infer<typeof ChargeStatusSchema>;

const THREEDS_STATUSES = ['PENDING', 'CHARGEABLE', 'NOT_AVAILABLE', 'FAILED', 'CAPTURED'] as const;
const ThreeDSStatusSchema = z.enum(THREEDS_STATUSES);
export type ThreeDSStatus = z.infer<typeof ThreeDSStatusSchema>;

/**
 * The issuer's EMV 3-D Secure answer once 3-D Secure is settled: `Y` authenticated, `N` failed,
 * `R` rejected without a challenge, `U` unavailable (the charge may still be captured).
 */
export const TRANS_STATUSES = ['Y', 'N', 'R', 'U'] as const;
const TransStatusSchema = z.enum(TRANS_STATUSES);
export type TransStatus = z.infer<typeof TransStatusSchema>;

const ChargeReasonSchema = z.enum(['EXPIRED', 'CANCEL_USING_API']);
export type ChargeReason = z.infer<typeof ChargeReasonSchema>;

export const ReturnUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' })
  .max(2048, { error: 'must be at most 2048 characters' })
  .refine(isStorableText, STORABLE_TEXT_ERROR)
  // zod runs every check even after the URL check failed, so this one must not assume a URL.
  .refine(
    (url) => {
      const parsed = URL.canParse(url) ? new URL(url) : null;
      return parsed === null || (parsed.username === '' && parsed.password === '');
    },
    { error: 'must not carry credentials' },
  )
  .refine(hasPlainHost, { error: 'must have a host that is a DNS name, an IPv4 address or a bracketed IPv6 address' })
  // As data the OpenAPI document reads (`x-http-url`): it writes what JSON Schema can say of these rules.
  .meta({ 'x-http-url': true });

/**
 * The host exactly as written (before URL parsing tidies it): the 3-D Secure page puts the return
 * origin in its Content-Security-Policy, so nothing that could end a directive may pass.
 */
function hasPlainHost(url: string): boolean {
  const afterScheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(.*)$/s.exec(url)?.[1];
  if (afterScheme === undefined) return true; // not a URL at all: the URL check reports it
  const authority = afterScheme.split(/[/?#\\]/, 1)[0] ?? '';
  const hostAndPort = authority.slice(authority.lastIndexOf('@') + 1);
  const host = /^(.*?)(:\d*)?$/s.exec(hostAndPort)?.[1] ?? '';
  return /^[A-Za-z0-9.-]+$/.test(host) || /^\[[0-9A-Fa-f:.]+\]$/.test(host);
}

export const CreateChargeBodySchema = z.strictObject({
  token: text(255),
  amount: AmountSchema,
  currency: CurrencySchema,
  description: text(1000, 0),
  txn_reference: text(255).optional(),
  return_url: ReturnUrlSchema,
  metadata: MetadataInputSchema.optional(),
});
export type CreateChargeBody = z.infer<typeof CreateChargeBodySchema>;

export const CaptureChargeBodySchema = z.strictObject({
  /** Omitted: the whole amount. Less captures part of it and releases the rest (not a refund); more than the charge's amount is a 400. */
  amount: AmountSchema.optional(),
});
export type CaptureChargeBody = z.infer<typeof CaptureChargeBodySchema>;

/** `POST /v2/charges/:id`: metadata is the one thing a charge's owner may change. */
export const UpdateChargeBodySchema = z.strictObject({
  /** Merged into the charge's: an empty value deletes its key. */
  metadata: MetadataInputSchema,
});
export type UpdateChargeBody = z.infer<typeof UpdateChargeBodySchema>;

export const ChargeSchema = z
  .object({
    type: z.literal('charge'),
    /** `C`, the creation time in milliseconds, then random digits (at least 16 after the C in all). */
    id: z.string().regex(/^C\d{16,}$/),
    currency: z.string(),
    amount: z.number().int(),
    /** 0 until captured; then what was captured (the rest of `amount` was released). */
    amount_captured: z.number().int(),
    amount_refunded: z.number().int(),
    fees: z.number().int().nullable(),
    description: z.string(),
    txn_reference: z.string().nullable(),
    threedSecure: z.object({
      redirect: z.string(),
      returnUrl: z.string(),
      status: ThreeDSStatusSchema,
      /** null until 3-D Secure is settled (and for charges that never needed it). */
      transStatus: TransStatusSchema.nullable(),
    }),
    status: ChargeStatusSchema,
    reason: ChargeReasonSchema.nullable(),
    token: ChargeTokenSchema,
    created: z.number().int(),
    mode: ModeSchema,
    metadata: MetadataSchema,
  })
  .meta({ id: 'Charge' });
export type Charge = z.infer<typeof ChargeSchema>;
