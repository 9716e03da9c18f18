import { TEST_ONE_TIME_CODE } from '@payframe/contract/test-cards';
import { describe, expect, it } from 'vitest';
import type { ChargeState } from './charge-lifecycle.ts';
import { base, STATES } from './charge-lifecycle-fixtures.ts';
import { bankAppAnswered, linkStanding, type PageStep, pageAnswer } from './threeds-page-answers.ts';

const success: PageStep = { kind: 'answer', answer: { type: 'authenticate', result: 'success' } };
const failure: PageStep = { kind: 'answer', answer: { type: 'authenticate', result: 'failure' } };
const invalid: PageStep = { kind: 'invalid' };
const scenario = (threeDSScenario: ChargeState['threeDSScenario']): ChargeState => ({ ...base, threeDSScenario });

describe('what a hosted page’s form says, by the card’s scenario', () => {
  it.each([
    ['challenge', { result: 'success' }, success],
    ['challenge', { result: 'failure' }, failure],
    ['challenge', { result: 'maybe' }, invalid],
    ['challenge', { action: 'continue' }, invalid],
    [null, { result: 'success' }, success],
    ['otp', { otp: ` ${TEST_ONE_TIME_CODE} `, action: 'verify' }, success],
    ['otp', { otp: '000000', action: 'verify' }, { kind: 'answer', answer: { type: 'wrong-code' } }],
    ['otp', { otp: '', action: 'verify' }, { kind: 'notice', notice: 'missing' }],
    ['otp', { otp: '', action: 'resend' }, { kind: 'notice', notice: 'resent' }],
    ['otp', { action: 'verify' }, invalid],
    ['otp', { otp: TEST_ONE_TIME_CODE, result: 'success' }, invalid],
    ['out-of-band', { result: 'success' }, invalid],
    ['frictionless', { action: 'continue' }, success],
    ['rejected', { action: 'continue' }, success],
    ['unavailable', { action: 'continue' }, success],
    ['unavailable', { result: 'success' }, invalid],
  ] as const)('%s page, form %j → %j', (name, form, step) => {
    expect(pageAnswer(scenario(name), form)).toEqual(step);
  });
});

describe('where a link stands', () => {
  it.each([
    ['PENDING, 3DS PENDING', 'awaiting'],
    ['PENDING, 3DS NOT_AVAILABLE', 'not-needed'],
    ['CHARGE_SUCCESS', 'ended'],
    ['CHARGE_FAILED (canceled)', 'ended'],
    ['REFUNDED, reason EXPIRED', 'ended'],
  ] as const)('%s → %s', (state, standing) => {
    expect(linkStanding(STATES[state])).toBe(standing);
  });

  it('is completed once an answer settled it, and the bank-app card then goes back to the merchant even if captured meanwhile', () => {
    const answered: ChargeState = { ...base, threeDSScenario: 'out-of-band', threeDSStatus: 'CHARGEABLE', transStatus: 'Y' };
    expect(linkStanding(answered)).toBe('completed');
    expect(bankAppAnswered(answered)).toBe(true);
    expect(bankAppAnswered({ ...answered, status: 'CHARGE_SUCCESS', threeDSStatus: 'CAPTURED' })).toBe(true);
    expect(bankAppAnswered({ ...answered, status: 'CHARGE_FAILED' })).toBe(false);
    expect(bankAppAnswered({ ...answered, transStatus: null })).toBe(false);
    expect(bankAppAnswered({ ...answered, threeDSScenario: 'otp' })).toBe(false);
  });
});
