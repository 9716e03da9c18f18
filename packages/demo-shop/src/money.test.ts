import { describe, expect, it } from 'vitest';
import { parseMoney, toDecimal } from './money.ts';

describe('refund amounts as a shopper types them', () => {
  it.each([
    ['12', 'EUR', 1200],
    ['12.5', 'EUR', 1250],
    ['12,50', 'EUR', 1250],
    ['0.01', 'EUR', 1],
    ['500', 'JPY', 500],
    ['1.234', 'BHD', 1234],
    // ISO 4217 gives HUF two decimals, though Intl shows none.
    ['500.25', 'HUF', 50025],
  ])('"%s" %s → %i', (input, currency, expected) => {
    expect(parseMoney(input, currency)).toBe(expected);
  });

  it.each([['-1'], ['1e3'], ['0'], ['0.00'], ['12.345'], [''], ['abc'], ['1234567890']])('"%s" EUR is refused', (input) => {
    expect(parseMoney(input, 'EUR')).toBeNull();
  });

  it('refuses decimals a currency does not have', () => {
    expect(parseMoney('5.5', 'JPY')).toBeNull();
  });

  it('writes the placeholder in the same minor units', () => {
    expect(toDecimal(100, 'EUR')).toBe('1.00');
    expect(toDecimal(100, 'HUF')).toBe('1.00');
    expect(toDecimal(100, 'JPY')).toBe('100');
  });
});
