import { describe, expect, it } from 'vitest';
import { type ChargeEvent, transition } from './charge-lifecycle.ts';
import { AMOUNT, FEE_ON_500, NOW, STATES, type TestCharge } from './charge-lifecycle-fixtures.ts';
import { DEFAULT_FEES } from './fees.ts';

/** Multi-step paths through the lifecycle: ending a charge, refunding in parts, 3-D Secure then capture. */
describe('ended charges follow the lifecycle table', () => {
  const ENDINGS: Array<[string, TestCharge, ChargeEvent]> = [
    ['canceled', STATES['PENDING, 3DS CHARGEABLE'], { type: 'cancel' }],
    ['released', STATES['PENDING, 3DS PENDING'], { type: 'refund', amount: undefined }],
  ];

  it.each(ENDINGS)('a %s uncaptured charge shows 3DS NOT_AVAILABLE', (_name, charge, event) => {
    const result = transition(charge, event, NOW);
    expect(result.ok && result.charge.threeDSStatus).toBe('NOT_AVAILABLE');
  });

  it('a canceled charge keeps amount_refunded 0; a released one gives back the whole amount', () => {
    const canceledResult = transition(STATES['PENDING, 3DS NOT_AVAILABLE'], { type: 'cancel' }, NOW);
    const releasedResult = transition(STATES['PENDING, 3DS NOT_AVAILABLE'], { type: 'refund', amount: AMOUNT }, NOW);
    expect(canceledResult.ok && canceledResult.charge.amountRefunded).toBe(0);
    expect(releasedResult.ok && releasedResult.charge.amountRefunded).toBe(AMOUNT);
    expect(releasedResult.ok && releasedResult.charge.reason).toBeNull();
  });

  it('a charge refunded after capture keeps 3DS CAPTURED and its fees', () => {
    const result = transition(STATES.CHARGE_SUCCESS, { type: 'refund', amount: undefined }, NOW);
    expect(result.ok && result.charge).toMatchObject({ status: 'REFUNDED', threeDSStatus: 'CAPTURED', fees: FEE_ON_500 });
  });
});

describe('partial refunds', () => {
  it('five refunds of 100 on 500 end REFUNDED, and a sixth fails', () => {
    let charge: TestCharge = STATES.CHARGE_SUCCESS;
    const statuses: string[] = [];
    for (let i = 1; i <= 5; i++) {
      const result = transition(charge, { type: 'refund', amount: 100 }, NOW);
      if (!result.ok) throw new Error(`refund ${i} failed: ${result.error.code}`);
      expect(result.refunded).toBe(100);
      expect(result.charge.amountRefunded).toBe(100 * i);
      statuses.push(result.charge.status);
      charge = result.charge;
    }
    expect(statuses).toEqual(['PARTIALLY_REFUNDED', 'PARTIALLY_REFUNDED', 'PARTIALLY_REFUNDED', 'PARTIALLY_REFUNDED', 'REFUNDED']);
    expect(charge).toMatchObject({ status: 'REFUNDED', threeDSStatus: 'CAPTURED', amountRefunded: 500, fees: FEE_ON_500 });

    const sixth = transition(charge, { type: 'refund', amount: 100 }, NOW);
    expect(sixth.ok).toBe(false);
    expect(!sixth.ok && sixth.error.code).toBe('CHARGE_ALREADY_REFUNDED');
  });

  it('a refund of exactly the remaining amount ends REFUNDED', () => {
    const result = transition(STATES['PARTIALLY_REFUNDED (200 of 500)'], { type: 'refund', amount: 300 }, NOW);
    expect(result.ok && result.charge).toMatchObject({ status: 'REFUNDED', amountRefunded: 500 });
    expect(result.ok && result.refunded).toBe(300);
  });

  it('one more than the remaining amount is AMOUNT_EXCEEDS_REMAINING on amount', () => {
    const result = transition(STATES['PARTIALLY_REFUNDED (200 of 500)'], { type: 'refund', amount: 301 }, NOW);
    expect(result).toMatchObject({ ok: false, error: { code: 'AMOUNT_EXCEEDS_REMAINING', parameter: 'amount' } });
  });
});

describe('3-D Secure then capture', () => {
  it('authenticate success then capture gives CHARGE_SUCCESS with fees; failure then capture gives AUTHENTICATION_FAILED', () => {
    const pending = STATES['PENDING, 3DS PENDING'];
    const capture: ChargeEvent = { type: 'capture', fees: DEFAULT_FEES };

    const authenticated = transition(pending, { type: 'authenticate', result: 'success' }, NOW);
    if (!authenticated.ok) throw new Error(authenticated.error.code);
    const capturedResult = transition(authenticated.charge, capture, NOW);
    expect(capturedResult.ok && capturedResult.charge).toMatchObject({
      status: 'CHARGE_SUCCESS',
      threeDSStatus: 'CAPTURED',
      fees: 33,
    });

    const failed = transition(pending, { type: 'authenticate', result: 'failure' }, NOW);
    if (!failed.ok) throw new Error(failed.error.code);
    const refused = transition(failed.charge, capture, NOW);
    expect(!refused.ok && refused.error.code).toBe('AUTHENTICATION_FAILED');
  });

  it('capture uses the fee schedule it is given', () => {
    const result = transition(STATES['PENDING, 3DS NOT_AVAILABLE'], { type: 'capture', fees: { rateBasisPoints: 100, fixed: 0 } }, NOW);
    expect(result.ok && result.charge.fees).toBe(5);
  });
});
