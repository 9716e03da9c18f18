import { describe, expect, it } from 'vitest';
import { captureFee, DEFAULT_FEES } from './fees.ts';

describe('captureFee', () => {
  it.each([
    // amount, fee: round(amount × 2.6 %) + 20, the default schedule
    [500, 33], // the spec's example: 13 + 20
    [1, 20], // 0.026 rounds down
    [19, 20], // 0.494 rounds down
    [20, 21], // 0.52 rounds up
    [250, 27], // 6.5 exactly: half rounds up
    [249, 26], // 6.474 rounds down
    [1000, 46],
    [99_999_999, 2_600_020], // 2 599 999.974 rounds up; no precision lost at MAX_AMOUNT
  ])('%i → %i with the default schedule', (amount, fee) => {
    expect(captureFee(amount, DEFAULT_FEES)).toBe(fee);
  });

  it.each([
    [{ rateBasisPoints: 290, fixed: 30 }, 1234, 66], // 35.786 → 36
    [{ rateBasisPoints: 0, fixed: 25 }, 5000, 25],
    [{ rateBasisPoints: 150, fixed: 0 }, 100, 2], // 1.5 → 2
    [{ rateBasisPoints: 150, fixed: 0 }, 99, 1], // 1.485 → 1
  ])('custom schedule %o on %i → %i', (fees, amount, fee) => {
    expect(captureFee(amount, fees)).toBe(fee);
  });

  it('equals Math.round(amount × rate) + fixed for every amount from 1 to 20000', () => {
    const mismatches: number[] = [];
    for (let amount = 1; amount <= 20_000; amount++) {
      if (captureFee(amount, DEFAULT_FEES) !== Math.round((amount * 260) / 10_000) + 20) mismatches.push(amount);
    }
    expect(mismatches).toEqual([]);
  });

  it('always returns an integer', () => {
    for (const amount of [3, 7, 77, 777, 7777, 77_777]) {
      expect(Number.isInteger(captureFee(amount, { rateBasisPoints: 333, fixed: 7 }))).toBe(true);
    }
  });
});
