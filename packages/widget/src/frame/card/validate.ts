import { FIELD_LIMITS } from '@payframe/contract/limits';
import { LUHN_EXEMPT_TEST_CARD } from '@payframe/contract/test-cards';
import type { ErrorKey } from '../i18n/en.ts';
import { brandRules } from './brand.ts';
import { luhn, verifyNumber } from './card-number.ts';
import { digitsOf } from './format.ts';

/**
 * `incomplete` may still become valid by typing on, so it is shown only once the shopper leaves the
 * field or submits; `invalid` cannot, and is shown at once; `empty` is shown on submit when required.
 */
export type Validity = { state: 'empty' } | { state: 'valid' } | { state: 'incomplete' | 'invalid'; error: ErrorKey };

const EMPTY: Validity = { state: 'empty' };
const VALID: Validity = { state: 'valid' };

export function validateNumber(value: string, testMode: boolean): Validity {
  const digits = digitsOf(value);
  if (digits === '') return EMPTY;
  if (testMode && digits === LUHN_EXEMPT_TEST_CARD) return VALID;
  const verification = verifyNumber(digits);
  const rules = brandRules(digits);
  if (verification.card) {
    if (verification.isValid) return VALID;
    if (!verification.isPotentiallyValid) return { state: 'invalid', error: 'numberInvalid' };
    // A number of a valid length that fails Luhn is wrong, not short: say so when it is shown.
    const error = rules.lengths.includes(digits.length) ? 'numberInvalid' : 'numberIncomplete';
    return { state: 'incomplete', error };
  }
  // No single brand (yet): the server accepts any 12 to 19 digits that pass Luhn.
  if (digits.length >= 12 && luhn(digits)) return VALID;
  if (digits.length < 19) return { state: 'incomplete', error: digits.length >= 12 ? 'numberInvalid' : 'numberIncomplete' };
  return { state: 'invalid', error: 'numberInvalid' };
}

/** Move on to the expiry once nothing more can be typed, or at 16 digits for brands that allow more. */
export function numberIsFinished(value: string, testMode: boolean): boolean {
  const digits = digitsOf(value);
  const longest = Math.max(...brandRules(digits).lengths);
  return validateNumber(value, testMode).state === 'valid' && (digits.length === longest || digits.length === 16);
}

/** A card is valid through the last day of its expiry month in UTC, as the server decides, whatever the shopper's time zone. */
export function validateExpiry(value: string, now: Date): Validity {
  const digits = digitsOf(value);
  if (digits === '') return EMPTY;
  const month = Number(digits.slice(0, 2));
  if (digits.length >= 2 && (month < 1 || month > 12)) return { state: 'invalid', error: 'expiryMonthInvalid' };
  if (digits.length < 4) return { state: 'incomplete', error: 'expiryIncomplete' };
  const year = 2000 + Number(digits.slice(2, 4));
  const currentYear = now.getUTCFullYear();
  if (year < currentYear || (year === currentYear && month < now.getUTCMonth() + 1)) return { state: 'invalid', error: 'expiryPast' };
  // However far ahead, as the API takes it (test mode takes any future expiry); an issuer refuses a wrong one.
  return VALID;
}

/**
 * 3 or 4 digits whatever the brand, as the API takes them (an Amex code of 3 too: test mode takes any
 * code, and an issuer refuses a wrong one at the charge). The input stops at the brand's length.
 */
export function validateCvc(value: string): Validity {
  const digits = digitsOf(value);
  if (digits === '') return EMPTY;
  return digits.length === 3 || digits.length === 4 ? VALID : { state: 'incomplete', error: 'cvcIncomplete' };
}

export function validateText(value: string, max: number): Validity {
  const text = value.trim();
  if (text === '') return EMPTY;
  return text.length <= max ? VALID : { state: 'invalid', error: 'textTooLong' };
}

export function validateEmail(value: string): Validity {
  const text = value.trim();
  if (text === '') return EMPTY;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) && text.length <= FIELD_LIMITS.email ? VALID : { state: 'incomplete', error: 'emailInvalid' };
}
