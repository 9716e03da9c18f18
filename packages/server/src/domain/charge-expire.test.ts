import type { ErrorCode } from '@payframe/contract';
import { describe, expect, it } from 'vitest';
import { settle, transition } from './charge-lifecycle.ts';
import { AMOUNT, CREATED, NOW, STATES, type StateName } from './charge-lifecycle-fixtures.ts';

/** The test helper's `expire` event (docs/api.md "Test helpers"), every state of the lifecycle. */
const EXPECTED: Record<StateName, 'expires' | ErrorCode> = {
  'PENDING, 3DS PENDING': 'expires',
  'PENDING, 3DS CHARGEABLE': 'expires',
  'PENDING, 3DS FAILED': 'expires',
  'PENDING, 3DS NOT_AVAILABLE': 'expires',
  CHARGE_SUCCESS: 'CHARGE_ALREADY_CAPTURED',
  'PARTIALLY_REFUNDED (200 of 500)': 'CHARGE_ALREADY_CAPTURED',
  'REFUNDED (released uncaptured)': 'CHARGE_ALREADY_REFUNDED',
  'REFUNDED (fully, after capture)': 'CHARGE_ALREADY_REFUNDED',
  'REFUNDED, reason EXPIRED': 'CHARGE_EXPIRED',
  'CHARGE_FAILED (canceled)': 'CHARGE_CANCELED',
  'PENDING, 7 days passed': 'CHARGE_EXPIRED',
};

describe('transition: expire', () => {
  it.each(Object.entries(EXPECTED) as Array<[StateName, 'expires' | ErrorCode]>)('%s → %s', (state, expected) => {
    const charge = STATES[state];
    const before = structuredClone(charge);
    const result = transition(charge, { type: 'expire' }, NOW);
    if (expected === 'expires') {
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.charge).toStrictEqual({ ...charge, status: 'REFUNDED', reason: 'EXPIRED', threeDSStatus: 'NOT_AVAILABLE', amountRefunded: AMOUNT });
      // A release, not a refund: no refund object is made, as at the deadline.
      expect(result.refunded).toBe(0);
    } else {
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe(expected);
      expect(result.error.message).toMatch(/\S/);
    }
    expect(charge).toStrictEqual(before);
  });

  it('gives exactly what the deadline gives', () => {
    const pending = STATES['PENDING, 3DS CHARGEABLE'];
    const atDeadline = settle(pending, CREATED + 7 * 24 * 60 * 60 * 1000);
    const result = transition(pending, { type: 'expire' }, NOW);
    expect(result.ok && result.charge).toStrictEqual(atDeadline);
  });

  it('leaves the createdAt alone, so the charge keeps its own dates', () => {
    const result = transition(STATES['PENDING, 3DS PENDING'], { type: 'expire' }, NOW);
    expect(result.ok && result.charge.createdAt).toBe(CREATED);
  });
});
