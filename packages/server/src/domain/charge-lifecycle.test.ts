import type { ErrorCode } from '@payframe/contract';
import { describe, expect, it } from 'vitest';
import { type ChargeEvent, type ChargeState, transition } from './charge-lifecycle.ts';
import { AMOUNT, FEE_ON_500, NOW, STATES, type StateName } from './charge-lifecycle-fixtures.ts';
import { DEFAULT_FEES } from './fees.ts';

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

type Expected = { changes: Partial<ChargeState>; refunded: number } | { code: ErrorCode; parameter?: string };

const to = (changes: Partial<ChargeState>, refunded = 0): Expected => ({ changes, refunded });
const err = (code: ErrorCode, parameter?: string): Expected => (parameter ? { code, parameter } : { code });

const captured = to({ status: 'CHARGE_SUCCESS', threeDSStatus: 'CAPTURED', fees: FEE_ON_500, amountCaptured: AMOUNT });
const canceled = to({ status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API', threeDSStatus: 'NOT_AVAILABLE' });
const released = to({ status: 'REFUNDED', threeDSStatus: 'NOT_AVAILABLE', amountRefunded: AMOUNT }, AMOUNT);
const notPending = err('AUTHENTICATION_NOT_PENDING');
const exceeds = err('AMOUNT_EXCEEDS_REMAINING', 'amount');
const alreadyCaptured = err('CHARGE_ALREADY_CAPTURED');
const alreadyRefunded = err('CHARGE_ALREADY_REFUNDED');
const expired = err('CHARGE_EXPIRED');
const canceledError = err('CHARGE_CANCELED');

/** docs/api.md "The charge lifecycle", every state × every event. */
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

describe('transition: the lifecycle table, every state × event', () => {
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

describe('partial capture: part of the amount captured, the rest released (no refund)', () => {
  const chargeable = STATES['PENDING, 3DS CHARGEABLE'];
  const capture = (amount: number) => transition(chargeable, { type: 'capture', fees: DEFAULT_FEES, amount }, NOW);

  it('captures 300 of 500 with fees on the 300, amount_refunded untouched', () => {
    const result = capture(300);
    expect(result).toMatchObject({ ok: true, refunded: 0, charge: { status: 'CHARGE_SUCCESS', amountCaptured: 300, amountRefunded: 0, fees: 28 } });
  });

  it('refuses more than the amount on `amount`, and takes exactly the amount', () => {
    expect(capture(AMOUNT + 1)).toEqual({ ok: false, error: expect.objectContaining({ code: 'PARAMETER_INVALID', parameter: 'amount' }) });
    expect(capture(AMOUNT)).toMatchObject({ ok: true, charge: { amountCaptured: AMOUNT, fees: FEE_ON_500 } });
  });

  it('bounds refunds by what was captured: REFUNDED when they meet', () => {
    const result = capture(300);
    if (!result.ok) throw new Error('capture failed');
    const refund = (charge: ChargeState, amount?: number) => transition(charge, { type: 'refund', amount }, NOW);
    expect(refund(result.charge, 301)).toEqual({ ok: false, error: expect.objectContaining({ code: 'AMOUNT_EXCEEDS_REMAINING' }) });
    const part = refund(result.charge, 100);
    expect(part).toMatchObject({ ok: true, refunded: 100, charge: { status: 'PARTIALLY_REFUNDED', amountRefunded: 100 } });
    if (!part.ok) throw new Error('refund failed');
    expect(refund(part.charge)).toMatchObject({ ok: true, refunded: 200, charge: { status: 'REFUNDED', amountRefunded: 300, amountCaptured: 300 } });
  });
});
