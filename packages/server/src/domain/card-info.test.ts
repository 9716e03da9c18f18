import { BRAND_BY_CARD_VALIDATOR_TYPE } from '@payframe/contract';
import { LUHN_EXEMPT_TEST_CARD, TEST_CARDS } from '@payframe/contract/test-cards';
import cardValidator from 'card-validator';
import luhn10 from 'card-validator/dist/luhn-10.js';
import { describe, expect, it } from 'vitest';
import { describeCard, isExpired, isValidCardNumber } from './card-info.ts';

const CARDS = Object.values(TEST_CARDS);

describe('describeCard: the test cards', () => {
  it.each(CARDS)('$number is $brand $funding $country, authorization $authorization', (card) => {
    expect(describeCard(card.number)).toStrictEqual({
      brand: card.brand,
      funding: card.funding,
      country: card.country,
      bank: card.bank,
      authorization: card.authorization,
    });
  });

  it.each(CARDS)('$number is a valid card number', ({ number }) => {
    expect(isValidCardNumber(number)).toBe(true);
  });

  it('the Maestro test card is the only one that fails Luhn', () => {
    expect(CARDS.filter(({ number }) => !luhn10(number)).map(({ number }) => number)).toEqual([LUHN_EXEMPT_TEST_CARD]);
  });
});

describe('describeCard: other numbers', () => {
  it('a Luhn-valid number of no known brand is UNKNOWN / UNKNOWN / UNKNOWN, CREDIT, NOT_AVAILABLE', () => {
    const number = '9999999999999995';
    expect(isValidCardNumber(number)).toBe(true);
    expect(describeCard(number)).toStrictEqual({
      brand: 'UNKNOWN',
      funding: 'CREDIT',
      country: 'UNKNOWN',
      bank: 'UNKNOWN',
      authorization: 'NOT_AVAILABLE',
    });
  });

  it.each([
    ['378282246310005', 'AMEX'],
    ['371449635398431', 'AMEX'],
    ['6011111111111117', 'DISCOVER'],
    ['6011000990139424', 'DISCOVER'],
    ['3530111333300000', 'JCB'],
    ['3566002020360505', 'JCB'],
    ['3056930009020004', 'DINERS'],
    ['36227206271667', 'DINERS'],
    ['6200000000000005', 'UNIONPAY'],
    ['6205500000000000004', 'UNIONPAY'],
    ['4111111111111111', 'VISA'],
    ['5105105105105100', 'MASTERCARD'],
    ['2223003122003222', 'MASTERCARD'],
  ] as const)('%s is a valid %s card, CREDIT, unknown country, no 3-D Secure', (number, brand) => {
    expect(isValidCardNumber(number)).toBe(true);
    expect(describeCard(number)).toStrictEqual({
      brand,
      funding: 'CREDIT',
      country: 'UNKNOWN',
      bank: 'UNKNOWN',
      authorization: 'NOT_AVAILABLE',
    });
  });

  it('a brand outside the list (Mir) comes back as UNKNOWN', () => {
    expect(describeCard('2200000000000004').brand).toBe('UNKNOWN');
  });
});

describe('isValidCardNumber', () => {
  it.each([
    '4242424242424241', // last digit off
    '4242424242424243',
    '4000000000003221',
    '5555555555554440',
    '378282246310006',
    '6011111111111118',
    '1234567812345678',
    '9999999999999991', // no known brand, Luhn fails
  ])('%s fails the Luhn check', (number) => {
    expect(isValidCardNumber(number)).toBe(false);
  });

  it.each([
    ['4222222222222', true, 'a 13-digit Visa'],
    ['4007000000027', true, 'a 13-digit Visa'],
    ['42424242424242426', true, 'a Visa prefix with 17 digits, Luhn-valid: any Luhn-valid number is'],
    ['555555555555442', true, 'a Mastercard prefix with 15 digits, Luhn-valid'],
    ['37828224631000500', true, 'an Amex prefix with 17 digits, Luhn-valid'],
    ['42424242424242424', false, 'a Visa prefix with 17 digits, Luhn-invalid'],
    ['4242', false, 'four digits'],
    ['42424242426', false, 'eleven digits, Luhn-valid'],
    ['6200000000000005', true, 'UnionPay, Luhn-valid'],
    ['6200000000000006', true, 'UnionPay of 16 digits need not pass Luhn'],
    ['6200000000006', false, 'UnionPay of 13 digits, shorter than its lengths, Luhn-invalid'],
    ['', false, 'empty'],
    ['999999999991', true, 'an unknown brand with 12 digits, Luhn-valid'],
  ] as const)('%s → %s (%s)', (number, valid, _description) => {
    expect(isValidCardNumber(number)).toBe(valid);
  });

  it('an unknown brand needs 12 to 19 digits', () => {
    expect(isValidCardNumber('99999999998')).toBe(false); // 11 digits, Luhn-valid
    expect(isValidCardNumber('9999999999999999999')).toBe(false); // 19 digits, Luhn-invalid
    expect(isValidCardNumber('99999999999999999994')).toBe(false); // 20 digits, Luhn-valid
  });
});

describe("brand detection from the number's first 8 digits, once per prefix", () => {
  it('agrees with card-validator on the whole number for numbers of every length and brand', () => {
    const prefixes = ['4', '51', '2221', '2720', '34', '37', '6011', '65', '3528', '3589', '36', '300', '62', '81', '2200', '6062', '5066', '9', '1'];
    let seed = 13;
    const digit = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return String(seed % 10);
    };
    for (let i = 0; i < 4_000; i++) {
      const prefix = prefixes[i % prefixes.length] ?? '4';
      const length = 8 + (i % 12);
      let number = prefix;
      while (number.length < length) number += digit();
      // Luhn-valid half the time: the last digit chosen to make the sum right.
      if (i % 2 === 0) number = number.slice(0, -1) + ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'].find((last) => luhn10(number.slice(0, -1) + last));
      const verification = cardValidator.number(number);
      // Luhn over 12 to 19 digits; UnionPay, which card-validator exempts from Luhn, within its own lengths.
      const luhnValid = number.length >= 12 && number.length <= 19 && luhn10(number);
      const expected = luhnValid || (verification.card?.type === 'unionpay' && verification.isValid);
      expect(isValidCardNumber(number), number).toBe(expected);
      const type = verification.card?.type;
      expect(describeCard(number).brand, number).toBe((type && BRAND_BY_CARD_VALIDATOR_TYPE[type]) || 'UNKNOWN');
    }
  });
});

describe('isExpired (UTC, usable through the last day of the expiry month)', () => {
  const MID_MARCH_2025 = Date.UTC(2025, 2, 15, 10, 30);

  it.each([
    [3, 2025, false, 'the current month'],
    [4, 2025, false, 'next month'],
    [1, 2026, false, 'next year, earlier month'],
    [12, 2099, false, 'far future'],
    [2, 2025, true, 'last month'],
    [12, 2024, true, 'last year, later month'],
    [3, 2024, true, 'same month last year'],
  ])('%i/%i in mid-March 2025 → %s (%s)', (month, year, expired) => {
    expect(isExpired(month, year, MID_MARCH_2025)).toBe(expired);
  });

  it('a card of March 2025 works until the last millisecond of March (UTC)', () => {
    expect(isExpired(3, 2025, Date.UTC(2025, 2, 31, 23, 59, 59, 999))).toBe(false);
    expect(isExpired(3, 2025, Date.UTC(2025, 3, 1))).toBe(true);
  });

  it('a December card works until New Year (UTC)', () => {
    expect(isExpired(12, 2025, Date.UTC(2025, 11, 31, 23, 59, 59, 999))).toBe(false);
    expect(isExpired(12, 2025, Date.UTC(2026, 0, 1))).toBe(true);
  });

  it('turns the month in UTC whatever the time zone of the process', () => {
    const saved = process.env.TZ;
    try {
      process.env.TZ = 'Pacific/Kiritimati'; // UTC+14: 1 April locally, still March in UTC
      expect(new Date(Date.UTC(2025, 2, 31, 23, 30)).getMonth()).toBe(3);
      expect(isExpired(3, 2025, Date.UTC(2025, 2, 31, 23, 30))).toBe(false);
      process.env.TZ = 'Pacific/Pago_Pago'; // UTC−11: 31 March locally, already April in UTC
      expect(new Date(Date.UTC(2025, 3, 1, 0, 30)).getMonth()).toBe(2);
      expect(isExpired(3, 2025, Date.UTC(2025, 3, 1, 0, 30))).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('on the first day of a month the card of that month is still good', () => {
    expect(isExpired(4, 2025, Date.UTC(2025, 3, 1))).toBe(false);
  });
});
