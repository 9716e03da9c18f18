import { describe, expect, it } from 'vitest';
import { type ChargeEvent, type ChargeState, MAX_CODE_TRIES, transition } from './charge-lifecycle.ts';
import { base, NOW, type TestCharge } from './charge-lifecycle-fixtures.ts';
import { DEFAULT_FEES } from './fees.ts';

describe('3-D Secure scenarios', () => {
  const pending = (threeDSScenario: ChargeState['threeDSScenario'], codeFailures = 0): TestCharge => ({ ...base, threeDSScenario, codeFailures });
  const apply = (charge: TestCharge, event: ChargeEvent) => {
    const result = transition(charge, event, NOW);
    if (!result.ok) throw new Error(result.error.code);
    return result.charge;
  };

  it.each([
    ['challenge', 'Y', 'CHARGEABLE'],
    [null, 'Y', 'CHARGEABLE'],
    ['otp', 'Y', 'CHARGEABLE'],
    ['out-of-band', 'Y', 'CHARGEABLE'],
    ['frictionless', 'Y', 'CHARGEABLE'],
    ['rejected', 'R', 'FAILED'],
    ['unavailable', 'U', 'NOT_AVAILABLE'],
  ] as const)('a success in the %s scenario answers %s, 3DS %s', (scenario, transStatus, threeDSStatus) => {
    expect(apply(pending(scenario), { type: 'authenticate', result: 'success' })).toMatchObject({ transStatus, threeDSStatus });
  });

  it.each(['otp', 'rejected', 'unavailable'] as const)('a failure in the %s scenario answers N, 3DS FAILED', (scenario) => {
    expect(apply(pending(scenario), { type: 'authenticate', result: 'failure' })).toMatchObject({ transStatus: 'N', threeDSStatus: 'FAILED' });
  });

  it('lets U be captured, and not R', () => {
    const unavailable = apply(pending('unavailable'), { type: 'authenticate', result: 'success' });
    expect(transition(unavailable, { type: 'capture', fees: DEFAULT_FEES }, NOW)).toMatchObject({ ok: true, charge: { status: 'CHARGE_SUCCESS' } });
    const rejected = apply(pending('rejected'), { type: 'authenticate', result: 'success' });
    expect(transition(rejected, { type: 'capture', fees: DEFAULT_FEES }, NOW)).toMatchObject({ ok: false, error: { code: 'AUTHENTICATION_FAILED' } });
  });

  it(`counts wrong codes and fails 3-D Secure at the ${MAX_CODE_TRIES}rd`, () => {
    const once = apply(pending('otp'), { type: 'wrong-code' });
    expect(once).toMatchObject({ codeFailures: 1, threeDSStatus: 'PENDING', transStatus: null });
    const twice = apply(once, { type: 'wrong-code' });
    expect(twice).toMatchObject({ codeFailures: 2, threeDSStatus: 'PENDING' });
    expect(apply(twice, { type: 'wrong-code' })).toMatchObject({ codeFailures: 3, threeDSStatus: 'FAILED', transStatus: 'N' });
    expect(apply(twice, { type: 'authenticate', result: 'success' })).toMatchObject({ threeDSStatus: 'CHARGEABLE', transStatus: 'Y' });
  });

  it('refuses a wrong code once 3-D Secure is settled, and on ended charges', () => {
    const settled = apply(pending('otp'), { type: 'authenticate', result: 'success' });
    expect(transition(settled, { type: 'wrong-code' }, NOW)).toMatchObject({ ok: false, error: { code: 'AUTHENTICATION_NOT_PENDING' } });
    const canceled = apply(pending('otp'), { type: 'cancel' });
    expect(transition(canceled, { type: 'wrong-code' }, NOW)).toMatchObject({ ok: false, error: { code: 'AUTHENTICATION_NOT_PENDING' } });
  });
});
