import { describe, expect, it } from 'vitest';
import { digitsPattern } from './integers.ts';

describe('digitsPattern', () => {
  it.each([
    [1, 100],
    [1, 12],
    [0, 59],
    [7, 7],
    [13, 2048],
    [1, 99_999_999],
  ])('matches exactly the integers from %i to %i', (minimum, maximum) => {
    const pattern = new RegExp(digitsPattern({ minimum, maximum }));
    const top = Math.min(maximum + 50, 3000);
    for (let n = 0; n <= top; n++) expect(pattern.test(String(n)), String(n)).toBe(n >= minimum && n <= maximum);
    expect(pattern.test(`00${Math.max(minimum, 1)}`)).toBe(minimum <= Math.max(minimum, 1) && Math.max(minimum, 1) <= maximum);
    expect(pattern.test(String(maximum))).toBe(true);
    expect(pattern.test(String(maximum + 1))).toBe(false);
    for (const bad of ['', '-1', '1.5', '1e3', ' 1']) expect(pattern.test(bad), bad).toBe(false);
  });

  it('takes the limits the API uses', () => {
    const advance = new RegExp(digitsPattern({ minimum: 1, maximum: 315_360_000 }));
    for (const n of [1, 9, 10, 99_999_999, 100_000_000, 299_999_999, 315_359_999, 315_360_000]) expect(advance.test(String(n)), String(n)).toBe(true);
    for (const n of [0, 315_360_001, 316_000_000, 400_000_000, 1_000_000_000]) expect(advance.test(String(n)), String(n)).toBe(false);
  });
});
