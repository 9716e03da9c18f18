import type { ChargeReason, ChargeStatus, ErrorCode, ThreeDSStatus, TransStatus } from '@payframe/contract';
import type { ThreeDSScenario } from '@payframe/contract/test-cards';
import { captureFee, type FeeSchedule } from './fees.ts';

/** An uncaptured charge is released exactly this long after creation. */
export const CHARGE_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;

/** Wrong one-time codes allowed before the issuer fails authentication (the third one fails it). */
export const MAX_CODE_TRIES = 3;

/** The part of a charge that the lifecycle reads and moves; everything else is carried along. */
export type ChargeState = {
  status: ChargeStatus;
  threeDSStatus: ThreeDSStatus;
  /** How the issuer runs 3-D Secure; null reads as the two-button challenge. */
  threeDSScenario: ThreeDSScenario | null;
  transStatus: TransStatus | null;
  codeFailures: number;
  reason: ChargeReason | null;
  amount: number;
  /** 0 until captured. */
  amountCaptured: number;
  amountRefunded: number;
  fees: number | null;
  createdAt: number;
};

export type ChargeEvent =
  /** The shopper's answer; `success` gives the scenario's own outcome (Y, or R / U for rejecting and unavailable issuers). */
  | { type: 'authenticate'; result: 'success' | 'failure' }
  | { type: 'wrong-code' }
  /** `amount` omitted: the whole amount. */
  | { type: 'capture'; fees: FeeSchedule; amount?: number | undefined }
  | { type: 'cancel' }
  | { type: 'refund'; amount: number | undefined }
  /** The test helper's per-charge time travel: the 7-day deadline, reached now for this charge only. */
  | { type: 'expire' };

export type TransitionError = { code: ErrorCode; message: string; parameter?: string };

export type TransitionResult<C extends ChargeState> = { ok: true; charge: C; refunded: number } | { ok: false; error: TransitionError };

/**
 * The one expiry rule: a charge still PENDING at `now` has expired if it was created at or before
 * this time. Reads apply it to one charge (settle), lists and the sweeper as a condition in SQL.
 * The deadline is 604800 s after the charge's `created` as the API shows it, in whole seconds: a
 * charge read when the clock says exactly `created + 604800` has expired, whatever the
 * milliseconds of its creation.
 */
export function expiredIfCreatedBy(now: number): number {
  return Math.floor((now - CHARGE_EXPIRY_MS) / 1000) * 1000 + 999;
}

/** Applies the exact 7-day expiry: a charge read at or after its deadline is released whole. */
export function settle<C extends ChargeState>(charge: C, now: number): C {
  if (charge.status !== 'PENDING' || charge.createdAt > expiredIfCreatedBy(now)) return charge;
  return expired(charge);
}

/** What a pending charge becomes at its deadline, whether the clock reached it or a test helper did. */
function expired<C extends ChargeState>(charge: C): C {
  return { ...charge, status: 'REFUNDED', reason: 'EXPIRED', threeDSStatus: 'NOT_AVAILABLE', amountRefunded: charge.amount };
}

/** The one place that decides how a charge may move (docs/api.md "The charge lifecycle"). Pure: `now` is given. */
export function transition<C extends ChargeState>(current: C, event: ChargeEvent, now: number): TransitionResult<C> {
  const charge = settle(current, now);
  const ended = endedError(charge, event);
  if (ended) return fail(ended);

  switch (event.type) {
    case 'authenticate':
      if (charge.threeDSStatus !== 'PENDING') {
        return fail({ code: 'AUTHENTICATION_NOT_PENDING', message: `3-D Secure is ${charge.threeDSStatus}, not PENDING.` });
      }
      return ok(answered(charge, issuerAnswer(charge.threeDSScenario, event.result)));
    case 'wrong-code': {
      if (charge.threeDSStatus !== 'PENDING') {
        return fail({ code: 'AUTHENTICATION_NOT_PENDING', message: `3-D Secure is ${charge.threeDSStatus}, not PENDING.` });
      }
      const codeFailures = charge.codeFailures + 1;
      return ok(codeFailures >= MAX_CODE_TRIES ? answered({ ...charge, codeFailures }, 'N') : { ...charge, codeFailures });
    }
    case 'capture':
      return capture(charge, event.fees, event.amount);
    case 'cancel':
      if (charge.status !== 'PENDING') return fail(alreadyCaptured('cancel'));
      return ok({ ...charge, status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API', threeDSStatus: 'NOT_AVAILABLE' });
    case 'refund':
      return refund(charge, event.amount);
    case 'expire':
      // Ended charges answered above; a captured one has no authorization left to release.
      if (charge.status !== 'PENDING') return fail(alreadyCaptured('expire'));
      return ok(expired(charge));
    default:
      return assertNever(event);
  }
}

/** Errors of charges that have ended, checked before anything else (expiry first, as in the lifecycle table). */
function endedError(charge: ChargeState, event: ChargeEvent): TransitionError | null {
  if (charge.status === 'REFUNDED' && charge.reason === 'EXPIRED') {
    if (isAuthentication(event)) return null;
    return { code: 'CHARGE_EXPIRED', message: 'The charge expired uncaptured seven days after creation; its authorization was released.' };
  }
  if (isAuthentication(event)) return null;
  if (charge.status === 'CHARGE_FAILED') {
    return { code: 'CHARGE_CANCELED', message: 'The charge was canceled.' };
  }
  if (charge.status === 'REFUNDED') {
    return { code: 'CHARGE_ALREADY_REFUNDED', message: 'The charge has already been refunded in full.' };
  }
  return null;
}

/** What the issuer answers: a failure is N whatever the scenario; a success is the scenario's own outcome. */
export function issuerAnswer(scenario: ThreeDSScenario | null, result: 'success' | 'failure'): TransStatus {
  if (result === 'failure') return 'N';
  if (scenario === 'rejected') return 'R';
  if (scenario === 'unavailable') return 'U';
  return 'Y';
}

/** U lets the charge go ahead unauthenticated (capture allowed); R and N fail it. */
const THREEDS_AFTER: Record<TransStatus, ThreeDSStatus> = { Y: 'CHARGEABLE', N: 'FAILED', R: 'FAILED', U: 'NOT_AVAILABLE' };

function answered<C extends ChargeState>(charge: C, transStatus: TransStatus): C {
  return { ...charge, transStatus, threeDSStatus: THREEDS_AFTER[transStatus] };
}

function isAuthentication(event: ChargeEvent): boolean {
  return event.type === 'authenticate' || event.type === 'wrong-code';
}

/** Captures `amount` (all of it by default); the uncaptured rest is released, which is no refund. */
function capture<C extends ChargeState>(charge: C, fees: FeeSchedule, amount = charge.amount): TransitionResult<C> {
  if (charge.status !== 'PENDING') return fail(alreadyCaptured('capture'));
  if (amount > charge.amount) {
    return fail({
      code: 'PARAMETER_INVALID',
      message: `Invalid parameter amount: the capture of ${amount} exceeds the charge's ${charge.amount}.`,
      parameter: 'amount',
    });
  }
  if (charge.threeDSStatus === 'PENDING') {
    return fail({ code: 'AUTHENTICATION_REQUIRED', message: 'The shopper has not completed 3-D Secure authentication yet.' });
  }
  if (charge.threeDSStatus === 'FAILED') {
    return fail({ code: 'AUTHENTICATION_FAILED', message: 'The shopper failed 3-D Secure authentication.' });
  }
  return ok({ ...charge, status: 'CHARGE_SUCCESS', threeDSStatus: 'CAPTURED', amountCaptured: amount, fees: captureFee(amount, fees) });
}

/** A captured charge refunds what was captured; an uncaptured one is released whole. */
function refund<C extends ChargeState>(charge: C, amount: number | undefined): TransitionResult<C> {
  const refundable = charge.status === 'PENDING' ? charge.amount : charge.amountCaptured;
  const remaining = refundable - charge.amountRefunded;
  const requested = amount ?? remaining;
  if (requested > remaining) {
    return fail({
      code: 'AMOUNT_EXCEEDS_REMAINING',
      message: `The refund of ${requested} exceeds the ${remaining} that remains on the charge.`,
      parameter: 'amount',
    });
  }
  if (charge.status === 'PENDING') {
    if (requested < remaining) {
      return fail({
        code: 'PARAMETER_INVALID',
        message: 'An uncaptured charge can only be released whole: omit amount or send the full amount.',
        parameter: 'amount',
      });
    }
    return ok({ ...charge, status: 'REFUNDED', threeDSStatus: 'NOT_AVAILABLE', amountRefunded: charge.amount }, requested);
  }
  const amountRefunded = charge.amountRefunded + requested;
  return ok({ ...charge, status: amountRefunded === charge.amountCaptured ? 'REFUNDED' : 'PARTIALLY_REFUNDED', amountRefunded }, requested);
}

const ALREADY_CAPTURED_MESSAGES = {
  capture: 'The charge has already been captured.',
  cancel: 'The charge has been captured; refund it instead.',
  expire: 'The charge has been captured; only an uncaptured charge expires.',
} as const;

function alreadyCaptured(action: keyof typeof ALREADY_CAPTURED_MESSAGES): TransitionError {
  return { code: 'CHARGE_ALREADY_CAPTURED', message: ALREADY_CAPTURED_MESSAGES[action] };
}

function ok<C extends ChargeState>(charge: C, refunded = 0): TransitionResult<C> {
  return { ok: true, charge, refunded };
}

function fail<C extends ChargeState>(error: TransitionError): TransitionResult<C> {
  return { ok: false, error };
}

function assertNever(value: never): never {
  throw new Error(`Unhandled charge event: ${JSON.stringify(value)}`);
}
