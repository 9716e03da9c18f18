import { TEST_CARDS } from '@payframe/contract/test-cards';
import { describe, expect, it } from 'vitest';
import { caretAfterDigits, formatCardNumber, formatExpiry } from './format.ts';

describe('formatCardNumber', () => {
  it('groups 4-4-4-4 with the gaps of most brands', () => {
    expect(formatCardNumber(TEST_CARDS.visa.number, [4, 8, 12])).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('42424', [4, 8, 12])).toBe('4242 4');
  });

  it('groups 4-6-5 with the Amex gaps', () => {
    expect(formatCardNumber('378282246310005', [4, 10])).toBe('3782 822463 10005');
  });

  it('adds no trailing space at a gap', () => {
    expect(formatCardNumber('4242', [4, 8, 12])).toBe('4242');
  });
});

describe('formatExpiry', () => {
  it('adds the separator once the month is typed', () => {
    expect(formatExpiry('1', false)).toBe('1');
    expect(formatExpiry('12', false)).toBe('12 / ');
    expect(formatExpiry('1228', false)).toBe('12 / 28');
  });

  it('pads a first digit that can only be a month with a leading zero', () => {
    expect(formatExpiry('4', false)).toBe('04 / ');
  });

  it('takes the last two digits of a pasted or autofilled four-digit year', () => {
    expect(formatExpiry('12/2031', false)).toBe('12 / 31');
    expect(formatExpiry('3/31', false)).toBe('03 / 31');
    expect(formatExpiry('12 / 31', false)).toBe('12 / 31');
  });

  it('lets the shopper delete past the separator', () => {
    expect(formatExpiry('12 /', true)).toBe('12');
    expect(formatExpiry('1', true)).toBe('1');
    expect(formatExpiry('4', true)).toBe('4');
  });

  it('drops letters and extra digits', () => {
    expect(formatExpiry('1a2b3c4d5', false)).toBe('12 / 34');
  });
});

describe('caretAfterDigits', () => {
  it('places the caret after the same count of digits, past a following separator', () => {
    expect(caretAfterDigits('4242 4242', 4)).toBe(5);
    expect(caretAfterDigits('4242 4242', 6)).toBe(7);
    expect(caretAfterDigits('4242 4242', 0)).toBe(0);
    expect(caretAfterDigits('12 / 3', 2)).toBe(5);
  });
});
