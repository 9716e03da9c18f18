import type { Brand, Mode, ThreeDSStatus, TransStatus } from '@payframe/contract';

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

/** What the one-time-code page reports about the last answer. */
export type CodeNotice = 'none' | 'missing' | 'wrong' | 'resent';

/**
 * Every page the hosted 3-D Secure route can show (docs/three-d-secure.md "Pages"). `returnLink` is
 * the merchant's return URL with the outcome in its query, built by the server; pages only link to
 * it, they never redirect.
 */
export type PageModel =
  | { kind: 'challenge'; payment: PaymentSummary; paRes: string }
  | { kind: 'otp'; payment: PaymentSummary; paRes: string; notice: CodeNotice; triesLeft: number; testCode: string }
  /** Refreshes itself; `deviceLink` (relative) is the simulated banking app, linked in test mode. */
  | { kind: 'oob-waiting'; payment: PaymentSummary; deviceLink: string }
  | { kind: 'oob-device'; payment: PaymentSummary; paRes: string }
  | { kind: 'oob-device-done'; payment: PaymentSummary; approved: boolean }
  | { kind: 'frictionless' | 'rejected' | 'auth-unavailable'; payment: PaymentSummary; paRes: string }
  /**
   * In the merchant's dialog: the page's script posts the outcome to `targetOrigin` (the return
   * URL's). The issuer's `transStatus` is on the page too, for tools that read it (the QA kit).
   */
  | {
      kind: 'complete';
      payment: PaymentSummary;
      chargeId: string;
      status: ThreeDSStatus;
      transStatus: TransStatus | null;
      targetOrigin: string;
      returnLink: string;
    }
  | { kind: 'completed'; payment: PaymentSummary; outcome: 'CHARGEABLE' | 'FAILED' | 'NOT_AVAILABLE'; returnLink: string }
  | { kind: 'not-needed'; payment: PaymentSummary; returnLink: string }
  | { kind: 'unavailable'; payment: PaymentSummary; returnLink: string }
  | { kind: 'not-found' }
  | { kind: 'error'; reason: ErrorReason };

export type PageKind = PageModel['kind'];
