import type { ErrorCode } from '@payframe/contract';
import { describe, expect, it } from 'vitest';
import { CHARGE_EXPIRY_MS, type ChargeEvent, type ChargeState, MAX_CODE_TRIES, settle, transition } from './charge-lifecycle.ts';
import { DEFAULT_FEES } from './fees.ts';

/** A charge as the services hold it: the lifecycle fields plus fields it must carry along untouched. */
type TestCharge = ChargeState & { id: string; description: string };

const CREATED = Date.UTC(2025, 2, 1, 12, 0, 0);
const NOW = CREATED + 60_000;
const AMOUNT = 500;
const FEE_ON_500 = 33;

const base: TestCharge = {
  id: 'C1234567890123456',
  description: 'Order 42',
  status: 'PENDING',
  threeDSStatus: 'PENDING',
  threeDSScenario: 'challenge',
  transStatus: null,
  codeFailures: 0,
  reason: null,
  amount: AMOUNT,
  amountRefunded: 0,
  fees: null,
  createdAt: CREATED,
};

const STATES = {
  'PENDING, 3DS PENDING': { ...base },
  'PENDING, 3DS CHARGEABLE': { ...base, threeDSStatus: 'CHARGEABLE' },
  'PENDING, 3DS FAILED': { ...base, threeDSStatus: 'FAILED' },
  'PENDING, 3DS NOT_AVAILABLE': { ...base, threeDSStatus: 'NOT_AVAILABLE' },
  CHARGE_SUCCESS: { ...base, status: 'CHARGE_SUCCESS', threeDSStatus: 'CAPTURED', fees: FEE_ON_500 },
  'PARTIALLY_REFUNDED (200 of 500)': {
    ...base,
    status: 'PARTIALLY_REFUNDED',
    threeDSStatus: 'CAPTURED',
    fees: FEE_ON_500,
    amountRefunded: 200,
  },
  'REFUNDED (released uncaptured)': { ...base, status: 'REFUNDED', threeDSStatus: 'NOT_AVAILABLE', amountRefunded: AMOUNT },
  'REFUNDED (fully, after capture)': {
    ...base,
    status: 'REFUNDED',
    threeDSStatus: 'CAPTURED',
    fees: FEE_ON_500,
    amountRefunded: AMOUNT,
  },
  'REFUNDED, reason EXPIRED': {
    ...base,
    status: 'REFUNDED',
    reason: 'EXPIRED',
    threeDSStatus: 'NOT_AVAILABLE',
    amountRefunded: AMOUNT,
  },
  'CHARGE_FAILED (canceled)': { ...base, status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API', threeDSStatus: 'NOT_AVAILABLE' },
  'PENDING, 7 days passed': { ...base, createdAt: NOW - CHARGE_EXPIRY_MS },
} satisfies Record<string, TestCharge>;
type StateName = keyof typeof STATES;

const EVENTS = {
  'authenticate success': { type: 'authenticate', result: 'success' },
  'authenticate failure': { type: 'authenticate', result: 'failure' },
  capture: { type: 'capture', fees: DEFAULT_FEES },
  cancel: { type: 'cancel' },
  'refund (amount omitted)': { type: 'refund', amount: undefined },
  'refund 500 (equal to amount)': { type: 'refund', amount: AMOUNT },
  'refund 100 (smaller)': { type: 'refund', amount: 100 },
  'refund 501 (larger)': { type: 'refund', amount: AMOUNT + 1 },
} satisfies Record<string, ChargeEvent>;
type EventName = keyof typeof EVENTS;

type Expected =
  | { changes: Partial<ChargeState>; refunded: number }
  | { code: ErrorCode; parameter?: string };

const to = (changes: Partial<ChargeState>, refunded = 0): Expected => ({ changes, refunded });
const err = (code: ErrorCode, parameter?: string): Expected => (parameter ? { code, parameter } : { code });

const captured = to({ status: 'CHARGE_SUCCESS', threeDSStatus: 'CAPTURED', fees: FEE_ON_500 });
const canceled = to({ status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API', threeDSStatus: 'NOT_AVAILABLE' });
const released = to({ status: 'REFUNDED', threeDSStatus: 'NOT_AVAILABLE', amountRefunded: AMOUNT }, AMOUNT);
const notPending = err('AUTHENTICATION_NOT_PENDING');
const exceeds = err('AMOUNT_EXCEEDS_REMAINING', 'amount');
const alreadyCaptured = err('CHARGE_ALREADY_CAPTURED');
const alreadyRefunded = err('CHARGE_ALREADY_REFUNDED');
const expired = err('CHARGE_EXPIRED');
const canceledError = err('CHARGE_CANCELED');

/** DESIGN §7, every state × every event. */
const TABLE: Record<StateName, Record<EventName, Expected>> = {
  'PENDING, 3DS PENDING': {
    'authenticate success': to({ threeDSStatus: 'CHARGEABLE', transStatus: 'Y' }),
    'authenticate failure': to({ threeDSStatus: 'FAILED', transStatus: 'N' }),
    capture: err('AUTHENTICATION_REQUIRED'),
    cancel: canceled,
    'refund (amount omitted)': released,
    'refund 500 (equal to amount)': released,
    'refund 100 (smaller)': err('PARAMETER_INVALID', 'amount'),
    'refund 501 (larger)': exceeds,
  },
  'PENDING, 3DS CHARGEABLE': {
    'authenticate success': notPending,
    'authenticate failure': notPending,
    capture: captured,
    cancel: canceled,
    'refund (amount omitted)': released,
    'refund 500 (equal to amount)': released,
    'refund 100 (smaller)': err('PARAMETER_INVALID', 'amount'),
    'refund 501 (larger)': exceeds,
  },
  'PENDING, 3DS FAILED': {
    'authenticate success': notPending,
    'authenticate failure': notPending,
    capture: err('AUTHENTICATION_FAILED'),
    cancel: canceled,
    'refund (amount omitted)': released,
    'refund 500 (equal to amount)': released,
    'refund 100 (smaller)': err('PARAMETER_INVALID', 'amount'),
    'refund 501 (larger)': exceeds,
  },
  'PENDING, 3DS NOT_AVAILABLE': {
    'authenticate success': notPending,
    'authenticate failure': notPending,
    capture: captured,
    cancel: canceled,
    'refund (amount omitted)': released,
    'refund 500 (equal to amount)': released,
    'refund 100 (smaller)': err('PARAMETER_INVALID', 'amount'),
    'refund 501 (larger)': exceeds,
  },
  CHARGE_SUCCESS: {
    'authenticate success': notPending,
    'authenticate failure': notPending,
    capture: alreadyCaptured,
    cancel: alreadyCaptured,
    'refund (amount omitted)': to({ status: 'REFUNDED', amountRefunded: AMOUNT }, AMOUNT),
    'refund 500 (equal to amount)': to({ status: 'REFUNDED', amountRefunded: AMOUNT }, AMOUNT),
    'refund 100 (smaller)': to({ status: 'PARTIALLY_REFUNDED', amountRefunded: 100 }, 100),
    'refund 501 (larger)': exceeds,
  },
  'PARTIALLY_REFUNDED (200 of 500)': {
    'authenticate success': notPending,
    'authenticate failure': notPending,
    capture: alreadyCaptured,
    cancel: alreadyCaptured,
    'refund (amount omitted)': to({ status: 'REFUNDED', amountRefunded: AMOUNT }, 300),
    'refund 500 (equal to amount)': exceeds, // only 300 remain
    'refund 100 (smaller)': to({ status: 'PARTIALLY_REFUNDED', amountRefunded: 300 }, 100),
    'refund 501 (larger)': exceeds,
  },
  'REFUNDED (released uncaptured)': {
    'authenticate success': notPending,
    'authenticate failure': notPending,
    capture: alreadyRefunded,
    cancel: alreadyRefunded,
    'refund (amount omitted)': alreadyRefunded,
    'refund 500 (equal to amount)': alreadyRefunded,
    'refund 100 (smaller)': alreadyRefunded,
    'refund 501 (larger)': alreadyRefunded,
  },
  'REFUNDED (fully, after capture)': {
    'authenticate success': notPending,
    'authenticate failure': notPending,
    capture: alreadyRefunded,
    cancel: alreadyRefunded,
    'refund (amount omitted)': alreadyRefunded,
    'refund 500 (equal to amount)': alreadyRefunded,
    'refund 100 (smaller)': alreadyRefunded,
    'refund 501 (larger)': alreadyRefunded,
  },
  'REFUNDED, reason EXPIRED': {
    'authenticate success': notPending,
    'authenticate failure': notPending,
    capture: expired,
    cancel: expired,
    'refund (amount omitted)': expired,
    'refund 500 (equal to amount)': expired,
    'refund 100 (smaller)': expired,
    'refund 501 (larger)': expired,
  },
  'CHARGE_FAILED (canceled)': {
    'authenticate success': notPending,
    'authenticate failure': notPending,
    capture: canceledError,
    cancel: canceledError,
    'refund (amount omitted)': canceledError,
    'refund 500 (equal to amount)': canceledError,
    'refund 100 (smaller)': canceledError,
    'refund 501 (larger)': canceledError,
  },
  'PENDING, 7 days passed': {
    'authenticate success': notPending, // expiry sets 3DS to NOT_AVAILABLE
    'authenticate failure': notPending,
    capture: expired,
    cancel: expired,
    'refund (amount omitted)': expired,
    'refund 500 (equal to amount)': expired,
    'refund 100 (smaller)': expired,
    'refund 501 (larger)': expired,
  },
};

const CASES = (Object.keys(TABLE) as StateName[]).flatMap((state) =>
  (Object.keys(TABLE[state]) as EventName[]).map((event) => ({ state, event, expected: TABLE[state][event] })),
);

describe('transition: DESIGN §7, every state × event', () => {
  it('covers 11 states × 8 events', () => {
    expect(CASES).toHaveLength(88);
  });

  it.each(CASES)('$state + $event', ({ state, event, expected }) => {
    const charge = STATES[state];
    const before = structuredClone(charge);
    const result = transition(charge, EVENTS[event], NOW);

    if ('code' in expected) {
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe(expected.code);
      expect(result.error.parameter).toBe(expected.parameter);
      expect(result.error.message).toMatch(/\S/);
    } else {
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.charge).toStrictEqual({ ...charge, ...expected.changes });
      expect(result.refunded).toBe(expected.refunded);
    }
    // Pure: the input charge is never modified.
    expect(charge).toStrictEqual(before);
  });
});

describe('ended charges follow DESIGN §6', () => {
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
