import { describe, expect, it } from 'vitest';
import { formatAmountInput, numberSeparators, parseLocaleAmount } from './money-parse.ts';

const amountOf = (input: string, currency: string, locale: string) => {
  const reading = parseLocaleAmount(input, currency, locale);
  return reading.ok ? reading.amount : null;
};
const messageOf = (input: string, currency: string, locale: string) => {
  const reading = parseLocaleAmount(input, currency, locale);
  return reading.ok ? null : reading.message;
};

describe('numberSeparators', () => {
  it.each([
    ['en-US', ',', '.', 3, 3],
    ['de-DE', '.', ',', 3, 3],
    ['en-IN', ',', '.', 3, 2],
  ])('%s groups with %j and marks decimals with %j', (locale, group, decimal, primary, secondary) => {
    expect(numberSeparators(locale)).toMatchObject({ group, decimal, primaryGroup: primary, secondaryGroup: secondary });
  });

  it('fr-FR groups with a kind of space', () => {
    expect([' ', '\u00a0', '\u202f']).toContain(numberSeparators('fr-FR').group);
    expect(numberSeparators('fr-FR').decimal).toBe(',');
  });
});

describe('parseLocaleAmount in en-US', () => {
  it.each([
    ['1,000', 'KWD', 1_000_000],
    ['1,000.000', 'KWD', 1_000_000],
    ['1.5', 'KWD', 1500],
    ['1,000', 'EUR', 100_000],
    ['1,500.00', 'EUR', 150_000],
    ['2.5', 'EUR', 250],
    ['2.50', 'EUR', 250],
    ['0.01', 'EUR', 1],
    ['1,234,567.89', 'USD', 123_456_789],
    ['1234567.89', 'USD', 123_456_789],
    ['1,000', 'JPY', 1000],
    ['500', 'JPY', 500],
    ['  12.34  ', 'EUR', 1234],
    ['12.', 'EUR', 1200],
  ])('%j %s is %i minor units', (input, currency, minor) => {
    expect(amountOf(input, currency, 'en-US')).toBe(minor);
  });

  it.each([
    ['1,5', 'EUR'],
    ['1,50', 'EUR'],
    ['1,0000', 'EUR'],
    ['12,34,567', 'EUR'],
    [',500', 'EUR'],
    ['1,,000', 'EUR'],
    ['1.000,50', 'EUR'],
  ])('refuses %j on %s as ambiguous or malformed', (input, currency) => {
    expect(amountOf(input, currency, 'en-US')).toBeNull();
  });

  it('never reads 1,000 on KWD as KWD 1.000', () => {
    expect(amountOf('1,000', 'KWD', 'en-US')).not.toBe(1000);
  });

  it('says why an ambiguous amount is refused and how to write it', () => {
    expect(messageOf('1,5', 'EUR', 'en-US')).toMatch(/ambiguous.*1,234\.50/);
  });
});

describe('parseLocaleAmount in de-DE', () => {
  it.each([
    ['1.000,5', 'EUR', 100_050],
    ['1.000,50', 'EUR', 100_050],
    ['1000,5', 'EUR', 100_050],
    ['2,50', 'EUR', 250],
    ['1.000', 'EUR', 100_000],
    ['1.000', 'KWD', 1_000_000],
    ['1,5', 'KWD', 1500],
    ['1.000', 'JPY', 1000],
  ])('%j %s is %i minor units', (input, currency, minor) => {
    expect(amountOf(input, currency, 'de-DE')).toBe(minor);
  });

  it.each(['2.50', '1.5', '1,000.50', '1.000.5'])('refuses %j (a dot groups thousands in de-DE)', (input) => {
    expect(amountOf(input, 'EUR', 'de-DE')).toBeNull();
  });
});

describe('parseLocaleAmount in fr-FR', () => {
  it.each([
    ['1 000,50', 100_050],
    ['1\u00a0000,50', 100_050],
    ['1\u202f000,50', 100_050],
    ['1000,5', 100_050],
    ['12,3', 1230],
  ])('%j EUR is %i minor units', (input, minor) => {
    expect(amountOf(input, 'EUR', 'fr-FR')).toBe(minor);
  });

  it.each(['1.5', '1 00,5', '1,000.50', '12,345'])('refuses %j', (input) => {
    expect(amountOf(input, 'EUR', 'fr-FR')).toBeNull();
  });
});

describe('decimals the currency does not have', () => {
  it.each([
    ['1.5', 'JPY', 'en-US'],
    ['1,5', 'JPY', 'de-DE'],
    ['1.000', 'JPY', 'en-US'],
    ['1.001', 'EUR', 'en-US'],
    ['1,0001', 'KWD', 'de-DE'],
    ['1.0001', 'KWD', 'en-US'],
  ])('refuses %j %s in %s and says how many it has', (input, currency, locale) => {
    const message = messageOf(input, currency, locale);
    expect(message).toMatch(currency === 'JPY' ? /JPY has no decimals/ : new RegExp(`${currency} has at most \\d decimals`));
  });

  it('takes all three KWD decimals', () => {
    expect(amountOf('1.234', 'KWD', 'en-US')).toBe(1234);
    expect(amountOf('0,005', 'KWD', 'de-DE')).toBe(5);
  });
});

describe('what is no amount at all', () => {
  it.each(['', '   ', '-5', '+5', '1e3', '€5', '5 EUR', 'abc', '0', '0.00', '0,00'])('refuses %j', (input) => {
    expect(amountOf(input, 'EUR', 'en-US')).toBeNull();
  });

  it('refuses what exceeds a safe integer', () => {
    expect(amountOf('99999999999999999999', 'EUR', 'en-US')).toBeNull();
  });
});

describe('other locales', () => {
  it('reads en-IN lakh grouping and refuses thousands grouping there', () => {
    expect(amountOf('12,34,567.50', 'INR', 'en-IN')).toBe(123_456_750);
    expect(amountOf('1,234,567.50', 'INR', 'en-IN')).toBeNull();
  });

  it('reads de-CH apostrophes, typed either way', () => {
    expect(amountOf("1'000.50", 'CHF', 'de-CH')).toBe(100_050);
    expect(amountOf('1\u2019000.50', 'CHF', 'de-CH')).toBe(100_050);
  });

  it('reads the locale’s own digits', () => {
    expect(amountOf(new Intl.NumberFormat('ar-EG', { minimumFractionDigits: 2 }).format(1234.5), 'EGP', 'ar-EG')).toBe(123_450);
  });
});

describe('formatAmountInput', () => {
  it.each([
    [150_000, 'EUR', 'en-US', '1,500.00'],
    [150_000, 'EUR', 'de-DE', '1.500,00'],
    [5, 'KWD', 'en-US', '0.005'],
    [2_000_000, 'KWD', 'en-US', '2,000.000'],
    [1500, 'JPY', 'de-DE', '1.500'],
    [99_999_999_999_999, 'EUR', 'en-US', '999,999,999,999.99'],
  ])('%i %s in %s is %j', (amount, currency, locale, text) => {
    expect(formatAmountInput(amount, currency, locale)).toBe(text);
  });

  it.each(['en-US', 'de-DE', 'fr-FR', 'en-IN', 'de-CH', 'ar-EG'])('reads back exactly what it writes in %s', (locale) => {
    for (const [amount, currency] of [
      [1, 'EUR'],
      [123_456_789, 'EUR'],
      [1_234_567, 'KWD'],
      [987_654, 'JPY'],
    ] as const) {
      expect(amountOf(formatAmountInput(amount, currency, locale), currency, locale)).toBe(amount);
    }
  });
});
