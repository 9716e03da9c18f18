import { describe, expect, it } from 'vitest';
import { CHARGE_EXPIRY_MS, type ChargeEvent, settle, transition } from './charge-lifecycle.ts';
import { AMOUNT, CREATED, STATES } from './charge-lifecycle-fixtures.ts';
import { DEFAULT_FEES } from './fees.ts';

describe('expiry is exact (7 days = 604800000 ms)', () => {
  const pending = STATES['PENDING, 3DS CHARGEABLE'];
  const deadline = CREATED + 604_800_000;

  it('one millisecond before the deadline the charge is still PENDING', () => {
    expect(settle(pending, deadline - 1)).toBe(pending);
  });

  it('at exactly the deadline the charge is released whole', () => {
    expect(settle(pending, deadline)).toStrictEqual({
      ...pending,
      status: 'REFUNDED',
      reason: 'EXPIRED',
      threeDSStatus: 'NOT_AVAILABLE',
      amountRefunded: AMOUNT,
    });
  });

  it('counts from the creation second the API shows: a charge made at .750 s expires at the deadline of its second', () => {
    const late = { ...pending, createdAt: CREATED + 750 };
    expect(settle(late, deadline - 1)).toBe(late);
    expect(settle(late, deadline)).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED' });
    const capture = transition(late, { type: 'capture', fees: DEFAULT_FEES }, deadline);
    expect(!capture.ok && capture.error.code).toBe('CHARGE_EXPIRED');
  });

  it('a 3DS-PENDING charge expires the same way', () => {
    const charge = STATES['PENDING, 3DS PENDING'];
    expect(settle(charge, deadline + 1)).toMatchObject({
      status: 'REFUNDED',
      reason: 'EXPIRED',
      threeDSStatus: 'NOT_AVAILABLE',
      amountRefunded: AMOUNT,
    });
  });

  it('capture works 1 ms before the deadline and answers CHARGE_EXPIRED at the deadline', () => {
    const capture: ChargeEvent = { type: 'capture', fees: DEFAULT_FEES };
    const early = transition(pending, capture, deadline - 1);
    expect(early.ok && early.charge.status).toBe('CHARGE_SUCCESS');
    const late = transition(pending, capture, deadline);
    expect(late.ok).toBe(false);
    expect(!late.ok && late.error.code).toBe('CHARGE_EXPIRED');
  });

  it('cancel and refund at the deadline answer CHARGE_EXPIRED', () => {
    for (const event of [{ type: 'cancel' }, { type: 'refund', amount: undefined }] as ChargeEvent[]) {
      const result = transition(pending, event, deadline);
      expect(!result.ok && result.error.code).toBe('CHARGE_EXPIRED');
    }
  });

  it.each([
    ['CHARGE_SUCCESS', STATES.CHARGE_SUCCESS],
    ['PARTIALLY_REFUNDED', STATES['PARTIALLY_REFUNDED (200 of 500)']],
    ['REFUNDED', STATES['REFUNDED (released uncaptured)']],
    ['CHARGE_FAILED', STATES['CHARGE_FAILED (canceled)']],
  ] as const)('%s is never touched by expiry', (_name, charge) => {
    expect(settle(charge, CREATED + 10 * CHARGE_EXPIRY_MS)).toBe(charge);
  });

  it('a captured charge can still be refunded long after 7 days', () => {
    const result = transition(STATES.CHARGE_SUCCESS, { type: 'refund', amount: 100 }, CREATED + 30 * CHARGE_EXPIRY_MS);
    expect(result.ok && result.charge).toMatchObject({ status: 'PARTIALLY_REFUNDED', amountRefunded: 100 });
  });
});
