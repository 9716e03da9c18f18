import { CHARGE_EXPIRY_MS, type ChargeState } from './charge-lifecycle.ts';

/* Charges in every state the lifecycle knows, shared by its tests. */

/** A charge as the services hold it: the lifecycle fields plus fields it must carry along untouched. */
export type TestCharge = ChargeState & { id: string; description: string };

export const CREATED = Date.UTC(2025, 2, 1, 12, 0, 0);
export const NOW = CREATED + 60_000;
export const AMOUNT = 500;
export const FEE_ON_500 = 33;

export const base: TestCharge = {
  id: 'C1234567890123456',
  description: 'Order 42',
  status: 'PENDING',
  threeDSStatus: 'PENDING',
  threeDSScenario: 'challenge',
  transStatus: null,
  codeFailures: 0,
  reason: null,
  amount: AMOUNT,
  amountCaptured: 0,
  amountRefunded: 0,
  fees: null,
  createdAt: CREATED,
};

export const STATES = {
  'PENDING, 3DS PENDING': { ...base },
  'PENDING, 3DS CHARGEABLE': { ...base, threeDSStatus: 'CHARGEABLE' },
  'PENDING, 3DS FAILED': { ...base, threeDSStatus: 'FAILED' },
  'PENDING, 3DS NOT_AVAILABLE': { ...base, threeDSStatus: 'NOT_AVAILABLE' },
  CHARGE_SUCCESS: { ...base, status: 'CHARGE_SUCCESS', threeDSStatus: 'CAPTURED', fees: FEE_ON_500, amountCaptured: AMOUNT },
  'PARTIALLY_REFUNDED (200 of 500)': {
    ...base,
    status: 'PARTIALLY_REFUNDED',
    threeDSStatus: 'CAPTURED',
    fees: FEE_ON_500,
    amountCaptured: AMOUNT,
    amountRefunded: 200,
  },
  'REFUNDED (released uncaptured)': { ...base, status: 'REFUNDED', threeDSStatus: 'NOT_AVAILABLE', amountRefunded: AMOUNT },
  'REFUNDED (fully, after capture)': {
    ...base,
    status: 'REFUNDED',
    threeDSStatus: 'CAPTURED',
    fees: FEE_ON_500,
    amountCaptured: AMOUNT,
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
export type StateName = keyof typeof STATES;
