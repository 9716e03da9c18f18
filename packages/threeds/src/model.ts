import type { Brand, Mode } from '@payframe/contract';

/** What the shopper is asked to approve; every string is shown as text, never as markup. */
export type PaymentSummary = {
  merchantName: string;
  /** Minor units of `currency` (ISO 4217). */
  amount: number;
  currency: string;
  brand: Brand;
  last4: string;
  /** Written by the merchant; may be empty. */
  description: string;
  mode: Mode;
};

/** Why a request could not be served at all (its status is the server's to choose). */
export type ErrorReason = 'bad-request' | 'method-not-allowed' | 'unavailable';

/**
 * Every page the hosted 3-D Secure route can show. `returnLink` is the merchant's return URL with
 * the outcome in its query, built by the server; pages only link to it, they never redirect.
 */
export type PageModel =
  | { kind: 'challenge'; payment: PaymentSummary; paRes: string }
  | { kind: 'completed'; payment: PaymentSummary; outcome: 'CHARGEABLE' | 'FAILED'; returnLink: string }
  | { kind: 'not-needed'; payment: PaymentSummary; returnLink: string }
  | { kind: 'unavailable'; payment: PaymentSummary; returnLink: string }
  | { kind: 'not-found' }
  | { kind: 'error'; reason: ErrorReason };

export type PageKind = PageModel['kind'];
