import { describe, expect, it } from 'vitest';
import { decimalAmount, formatAmount, minorUnits, parseDecimalAmount } from './money-format.ts';
import { ISO_DIGITS_EXAMPLES, plainSpaces } from './money-format-examples.ts';

const intlDigits = (currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;

describe('minorUnits', () => {
  it.each([
    ['EUR', 2],
    ['usd', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['BHD', 3],
    ['KWD', 3],
    ['CLF', 4],
    // ISO 4217 where CLDR's display digits differ.
    ['HUF', 2],
    ['IDR', 2],
    ['IQD', 3],
  ])('%s has %i', (currency, digits) => {
    expect(minorUnits(currency)).toBe(digits);
  });

  it('departs from Intl for exactly the currencies the examples cover', () => {
    const differing = Intl.supportedValuesOf('currency').filter((code) => intlDigits(code) !== minorUnits(code));
    expect(differing.sort()).toEqual(ISO_DIGITS_EXAMPLES.map((example) => example.currency).sort());
  });
});

describe('formatAmount', () => {
  it.each([
    [500, 'EUR', 'en', '€5.00'],
    [500, 'EUR', 'fr', '5,00 €'],
    [123456, 'EUR', 'de', '1.234,56 €'],
    [123456, 'EUR', 'es', '1234,56 €'],
    [99_999_999, 'USD', 'en-US', '$999,999.99'],
    [5, 'GBP', 'en-GB', '£0.05'],
    [500, 'JPY', 'en', '¥500'],
    [1500, 'JPY', 'fr', '1 500 JPY'],
    [1234, 'BHD', 'en', 'BHD 1.234'],
    [5, 'BHD', 'en', 'BHD 0.005'],
    [1234, 'BHD', 'fr', '1,234 BHD'],
    [50000, 'HUF', 'en', 'HUF 500.00'],
    [1234, 'CHF', 'de-CH', 'CHF 12.34'],
  ])('%i %s in %s → %s', (amount, currency, locale, expected) => {
    expect(plainSpaces(formatAmount(amount, currency, locale))).toBe(expected);
  });

  it.each(ISO_DIGITS_EXAMPLES)('$amount $currency in ISO minor units → $text', ({ amount, currency, text }) => {
    expect(plainSpaces(formatAmount(amount, currency, 'en-IE'))).toBe(text);
  });

  it('is exact for every amount up to the maximum (no float rounding)', () => {
    for (const amount of [1, 10, 99, 100, 1_000_001, 12_345_678, 99_999_999]) {
      const digits = formatAmount(amount, 'EUR', 'en').replace(/\D/g, '');
      expect(Number(digits)).toBe(amount);
      expect(formatAmount(amount, 'BHD', 'en').replace(/\D/g, '')).toBe(String(amount).padStart(4, '0'));
    }
  });

  it('accepts the currency in lower case', () => {
    expect(formatAmount(500, 'eur', 'en')).toBe('€5.00');
  });
});

describe('decimalAmount', () => {
  it.each([
    [12345, 'EUR', '123.45'],
    [5, 'BHD', '0.005'],
    [500, 'JPY', '500'],
    [50000, 'HUF', '500.00'],
    [7, 'IQD', '0.007'],
  ])('%i %s → %s', (amount, currency, expected) => {
    expect(decimalAmount(amount, currency)).toBe(expected);
  });
});

describe('parseDecimalAmount', () => {
  it.each([
    ['2.50', 'EUR', 250],
    ['2,5', 'EUR', 250],
    [' 12 ', 'EUR', 1200],
    ['500', 'JPY', 500],
    ['1.234', 'BHD', 1234],
    ['500.00', 'HUF', 50000],
  ])('reads %j %s as %i minor units', (input, currency, minor) => {
    expect(parseDecimalAmount(input, currency)).toBe(minor);
  });

  it.each([
    ['2.505', 'EUR'],
    ['5.5', 'JPY'],
    ['-1', 'EUR'],
    ['1e3', 'EUR'],
    ['0', 'EUR'],
    ['0.00', 'EUR'],
    ['', 'EUR'],
    ['€2', 'EUR'],
  ])('refuses %j %s', (input, currency) => {
    expect(parseDecimalAmount(input, currency)).toBeNull();
  });

  it('reads back what decimalAmount writes', () => {
    for (const [amount, currency] of [
      [1, 'EUR'],
      [123456, 'BHD'],
      [99, 'JPY'],
    ] as const) {
      expect(parseDecimalAmount(decimalAmount(amount, currency), currency)).toBe(amount);
    }
  });
});
