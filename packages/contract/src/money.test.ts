import { describe, expect, it } from 'vitest';
import { AmountSchema, CurrencySchema, MAX_AMOUNT } from './money.ts';

describe('AmountSchema', () => {
  it.each([
    ['5000', 5000],
    [5000, 5000],
    ['1', 1],
    [1, 1],
    [String(MAX_AMOUNT), MAX_AMOUNT],
    [MAX_AMOUNT, MAX_AMOUNT],
  ])('accepts %j as %i', (input, amount) => {
    expect(AmountSchema.parse(input)).toBe(amount);
  });

  it.each([
    '0',
    0,
    '-5',
    -5,
    '5.5',
    5.5,
    '5.0',
    '1e3',
    '',
    ' 5',
    '5 ',
    '+5',
    '0x10',
    String(MAX_AMOUNT + 1),
    MAX_AMOUNT + 1,
    '99999999999999999999999',
    Number.NaN,
    Number.POSITIVE_INFINITY,
    null,
    true,
    [5],
  ])('rejects %j', (input) => {
    expect(AmountSchema.safeParse(input).success).toBe(false);
  });

  it('MAX_AMOUNT keeps sums of amounts far inside safe integers', () => {
    expect(Number.isSafeInteger(MAX_AMOUNT * 10_000)).toBe(true);
  });
});

describe('CurrencySchema', () => {
  it.each([
    ['eur', 'EUR'],
    ['EUR', 'EUR'],
    ['JPY', 'JPY'],
    ['jpy', 'JPY'],
    ['bhd', 'BHD'],
    ['uSd', 'USD'],
  ])('accepts %s as %s', (input, code) => {
    expect(CurrencySchema.parse(input)).toBe(code);
  });

  it.each(['XYZ', 'xyz', 'euro', 'EU', '', ' EUR', 'EUR ', 'E1R', 978, null])('rejects %j', (input) => {
    expect(CurrencySchema.safeParse(input).success).toBe(false);
  });
});
