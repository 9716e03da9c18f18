// Formatting as the shopper types. Every formatter works on digits, so a caret is carried across a
// reformat by counting the digits before it.

export function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/** `4242424242424242` → `4242 4242 4242 4242`; Amex gaps give `3782 822463 10005`. */
export function formatCardNumber(digits: string, gaps: number[]): string {
  let formatted = '';
  for (let index = 0; index < digits.length; index++) {
    if (gaps.includes(index)) formatted += ' ';
    formatted += digits[index];
  }
  return formatted;
}

/**
 * `MM / YY`. A first digit above 1 can only be a month with a leading zero (`4` → `04 / `); a pasted
 * or autofilled `12/2028` keeps the last two digits of its year. While deleting, the separator is
 * not added back, or the shopper could never delete past it.
 */
export function formatExpiry(raw: string, deleting: boolean): string {
  const [monthPart = '', yearPart] = raw.split('/');
  let month = digitsOf(monthPart);
  let year = yearPart === undefined ? '' : digitsOf(yearPart);
  if (yearPart === undefined) {
    year = month.slice(2);
    month = month.slice(0, 2);
  } else if (year.length === 4) {
    year = year.slice(2);
  }
  if (month.length === 1 && month > '1' && !deleting) month = `0${month}`;
  if (yearPart !== undefined && month.length === 1) month = `0${month}`;
  year = year.slice(0, 2);
  if (month.length < 2 || (deleting && year === '')) return month;
  return `${month} / ${year}`;
}

/** The position just after the `count`-th digit of `formatted` (or its end). */
export function caretAfterDigits(formatted: string, count: number): number {
  if (count === 0) return 0;
  let seen = 0;
  for (let index = 0; index < formatted.length; index++) {
    if (/\d/.test(formatted[index] ?? '') && ++seen === count) {
      // Step over a separator that directly follows, so typing continues after it.
      let caret = index + 1;
      while (caret < formatted.length && !/\d/.test(formatted[caret] ?? '')) caret++;
      return caret;
    }
  }
  return formatted.length;
}
