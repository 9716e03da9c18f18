import { TEST_CARDS } from '@payframe/contract/test-cards';
import { describe, expect, it } from 'vitest';
import { brandRules } from './brand.ts';
import { numberIsFinished, validateCvc, validateExpiry, validateNumber } from './validate.ts';

const NOW = new Date(Date.UTC(2026, 10, 21)); // 21 November 2026

/** Runs `check` with the process in another time zone (Node reads TZ on every date operation). */
function inTimeZone(timeZone: string, check: () => void): void {
  const saved = process.env.TZ;
  process.env.TZ = timeZone;
  try {
    check();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}

describe('brand detection', () => {
  it.each([
    [TEST_CARDS.visa.number, 'VISA'],
    [TEST_CARDS.mastercard3DS.number, 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['6011111111111117', 'DISCOVER'],
    ['3566002020360505', 'JCB'],
    ['36227206271667', 'DINERS'],
    ['6759649826438450', 'MAESTRO'],
    ['9999999999999995', 'UNKNOWN'],
  ])('%s is %s', (number, brand) => {
    expect(brandRules(number).brand).toBe(brand);
  });

  it('gives Amex its 4-6-5 gaps, 15 digits and a 4-digit code', () => {
    expect(brandRules('37')).toMatchObject({ brand: 'AMEX', gaps: [4, 10], lengths: [15], cvcLengths: [4] });
  });
});

describe('validateNumber', () => {
  it('accepts Luhn-valid numbers of their brand length', () => {
    expect(validateNumber('4242 4242 4242 4242', false)).toEqual({ state: 'valid' });
    expect(validateNumber('3782 822463 10005', false)).toEqual({ state: 'valid' });
  });

  it('calls a short number incomplete, and a full-length Luhn failure invalid', () => {
    expect(validateNumber('4242 4242', false)).toEqual({ state: 'incomplete', error: 'numberIncomplete' });
    // Visa allows 19 digits, so 16 failing Luhn could still grow: it is shown once the shopper leaves.
    expect(validateNumber('4242 4242 4242 4241', false)).toEqual({ state: 'incomplete', error: 'numberInvalid' });
    // Amex stops at 15: nothing more can be typed, so the error shows at once.
    expect(validateNumber('3782 822463 10006', false)).toEqual({ state: 'invalid', error: 'numberInvalid' });
  });

  it('follows the server for numbers of no known brand: 12 to 19 digits and Luhn', () => {
    expect(validateNumber('9999999999999995', false)).toEqual({ state: 'valid' });
    expect(validateNumber('9999999999999999999', false)).toEqual({ state: 'invalid', error: 'numberInvalid' });
  });

  it('accepts the documented Luhn-invalid Maestro test card with a test key only', () => {
    expect(validateNumber(TEST_CARDS.maestro3DS.number, true)).toEqual({ state: 'valid' });
    expect(validateNumber(TEST_CARDS.maestro3DS.number, false).state).not.toBe('valid');
  });

  it('moves on after 16 digits or the brand’s longest length', () => {
    expect(numberIsFinished('4242 4242 4242 4242', false)).toBe(true);
    expect(numberIsFinished('3782 822463 10005', false)).toBe(true);
    expect(numberIsFinished('4242 4242 4242 4241', false)).toBe(false);
  });
});

describe('validateExpiry', () => {
  it('refuses a month outside 01–12 as soon as it is typed', () => {
    expect(validateExpiry('13', NOW)).toEqual({ state: 'invalid', error: 'expiryMonthInvalid' });
    expect(validateExpiry('00 / 30', NOW)).toEqual({ state: 'invalid', error: 'expiryMonthInvalid' });
  });

  it('refuses a past month, accepts the current one through its last day', () => {
    expect(validateExpiry('10 / 26', NOW)).toEqual({ state: 'invalid', error: 'expiryPast' });
    expect(validateExpiry('12 / 25', NOW)).toEqual({ state: 'invalid', error: 'expiryPast' });
    expect(validateExpiry('11 / 26', NOW)).toEqual({ state: 'valid' });
    expect(validateExpiry('01 / 27', NOW)).toEqual({ state: 'valid' });
  });

  it('turns the month in UTC, as the server does, wherever the shopper is', () => {
    const lastMinuteOfNovemberUtc = new Date(Date.UTC(2026, 10, 30, 23, 30));
    const firstMinuteOfDecemberUtc = new Date(Date.UTC(2026, 11, 1, 0, 30));
    // UTC+14: already 1 December on the shopper's clock, still November for the server.
    inTimeZone('Pacific/Kiritimati', () => {
      expect(lastMinuteOfNovemberUtc.getMonth()).toBe(11);
      expect(validateExpiry('11 / 26', lastMinuteOfNovemberUtc)).toEqual({ state: 'valid' });
    });
    // UTC−11: still 30 November on the shopper's clock, already December for the server.
    inTimeZone('Pacific/Pago_Pago', () => {
      expect(firstMinuteOfDecemberUtc.getMonth()).toBe(10);
      expect(validateExpiry('11 / 26', firstMinuteOfDecemberUtc)).toEqual({ state: 'invalid', error: 'expiryPast' });
    });
  });

  it('takes any later year, as the API does', () => {
    expect(validateExpiry('12 / 99', NOW)).toEqual({ state: 'valid' });
  });

  it('calls a partial date incomplete', () => {
    expect(validateExpiry('12 / 2', NOW)).toEqual({ state: 'incomplete', error: 'expiryIncomplete' });
  });
});

describe('validateCvc', () => {
  it('takes 3 or 4 digits whatever the brand, as the API does', () => {
    expect(validateCvc('12')).toEqual({ state: 'incomplete', error: 'cvcIncomplete' });
    expect(validateCvc('123')).toEqual({ state: 'valid' });
    expect(validateCvc('1234')).toEqual({ state: 'valid' });
  });
});
