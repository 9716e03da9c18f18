import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, retryAt } from './webhook-retry.ts';

describe('webhook retry schedule', () => {
  it('waits 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, 24 h after each failure, then gives up', () => {
    const waits = DEFAULT_RETRY_SCHEDULE_SECONDS.map((_, index) => (retryAt(DEFAULT_RETRY_SCHEDULE_SECONDS, index + 1, 0, () => 0.5) ?? 0) / 1000);
    expect(waits).toEqual([60, 300, 1_800, 7_200, 21_600, 43_200, 86_400, 86_400]);
    expect(retryAt(DEFAULT_RETRY_SCHEDULE_SECONDS, 9, 0, () => 0.5)).toBeNull();
  });

  it('jitters each wait by at most ±10 %', () => {
    expect(retryAt([60], 1, 1_000, () => 0)).toBe(1_000 + 54_000);
    expect(retryAt([60], 1, 1_000, () => 0.999_999)).toBeCloseTo(1_000 + 66_000, -1);
  });

  it('a schedule of N entries allows N + 1 attempts', () => {
    expect(retryAt([1, 1, 2], 3, 0, () => 0.5)).toBe(2_000);
    expect(retryAt([1, 1, 2], 4, 0, () => 0.5)).toBeNull();
    expect(retryAt([], 1, 0, () => 0.5)).toBeNull();
  });
});
