import { TEST_ONE_TIME_CODE } from '@payframe/contract/test-cards';
import type { ChargeEvent, ChargeState } from './charge-lifecycle.ts';

/*
 * What the hosted 3-D Secure pages decide from a charge and a shopper's form (docs/three-d-secure.md).
 * Pure: the route shows pages, services/threeds-page.ts records what is decided here.
 */

export type ThreeDSAnswer = Extract<ChargeEvent, { type: 'authenticate' | 'wrong-code' }>;

export type PageStep = { kind: 'answer'; answer: ThreeDSAnswer } | { kind: 'notice'; notice: 'missing' | 'resent' } | { kind: 'invalid' };

/**
 * Where a link stands: its charge has ended (`ended`), the shopper can still answer (`awaiting`),
 * or 3-D Secure is settled, by an answer (`completed`) or because it was never needed (`not-needed`).
 */
export type LinkStanding = 'ended' | 'awaiting' | 'completed' | 'not-needed';

export function linkStanding(charge: ChargeState): LinkStanding {
  if (charge.status !== 'PENDING') return 'ended';
  if (charge.threeDSStatus === 'PENDING') return 'awaiting';
  return charge.transStatus !== null ? 'completed' : 'not-needed';
}

/** Whether the shopper can still answer: the charge is pending and so is its 3-D Secure. */
export function awaitingShopper(charge: ChargeState): boolean {
  return charge.status === 'PENDING' && charge.threeDSStatus === 'PENDING';
}

/**
 * The bank-app card whose banking app has answered: the waiting page's next view goes on to the
 * merchant, even when the merchant's webhook handler has captured the charge in the meantime.
 */
export function bankAppAnswered(charge: ChargeState): boolean {
  const decided = charge.status === 'PENDING' || charge.status === 'CHARGE_SUCCESS';
  return charge.threeDSScenario === 'out-of-band' && decided && charge.transStatus !== null;
}

/** Only the bank-app card has a "phone" page. */
export function hasDevicePage(charge: ChargeState): boolean {
  return charge.threeDSScenario === 'out-of-band';
}

/** What a page's form says, read by the card's scenario: each page accepts only its own answers. */
export function pageAnswer(charge: ChargeState, form: Record<string, unknown>): PageStep {
  switch (charge.threeDSScenario) {
    case 'otp': {
      // Its own form always sends the `otp` field (empty when left blank) and the pressed button's
      // `action`; a `result`, another action or no `otp` at all is another page's answer.
      const ownAction = form.action === undefined || form.action === 'verify' || form.action === 'resend';
      if (form.result !== undefined || !ownAction) return { kind: 'invalid' };
      if (form.action === 'resend') return { kind: 'notice', notice: 'resent' };
      const code = typeof form.otp === 'string' ? form.otp.trim() : undefined;
      if (code === undefined) return { kind: 'invalid' };
      if (code === '') return { kind: 'notice', notice: 'missing' };
      return { kind: 'answer', answer: code === TEST_ONE_TIME_CODE ? { type: 'authenticate', result: 'success' } : { type: 'wrong-code' } };
    }
    case 'out-of-band':
      // Answered from the banking app (the device page) only.
      return { kind: 'invalid' };
    case 'frictionless':
    case 'rejected':
    case 'unavailable':
      return form.action === 'continue' ? { kind: 'answer', answer: { type: 'authenticate', result: 'success' } } : { kind: 'invalid' };
    default:
      return deviceAnswer(form) ?? { kind: 'invalid' };
  }
}

/** The two-button page's and the banking app's answer: `result` is success or failure. */
export function deviceAnswer(form: Record<string, unknown>): { kind: 'answer'; answer: ThreeDSAnswer } | null {
  const { result } = form;
  return result === 'success' || result === 'failure' ? { kind: 'answer', answer: { type: 'authenticate', result } } : null;
}
