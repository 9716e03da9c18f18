import { minorUnits } from './money-format.ts';

/**
 * Reading an amount a person typed, in major units, the way their locale writes numbers: en-US
 * `1,234.5`, de-DE `1.234,5`, fr-FR `1 234,5`. A separator means only what the locale says it
 * means, and text that could be read as another amount is refused rather than guessed at: `1,5`
 * in en-US (a comma groups thousands there) and `2.50` in de-DE (a dot groups thousands there)
 * are both refused, never read as 1.5 or 250. Plain data and Intl only, like money-format.ts.
 */
export type AmountReading = { ok: true; amount: number } | { ok: false; message: string };

export type NumberSeparators = {
  group: string;
  decimal: string;
  /** Digits in the last group and in the groups before it: 3 and 3 mostly, 3 and 2 in en-IN. */
  primaryGroup: number;
  secondaryGroup: number;
  /** The locale's digits 0–9 (Latin in most locales, Arabic-Indic in ar-EG). */
  digits: readonly string[];
};

/** Spaces people type for a locale whose group separator is a (narrow) no-break space. */
const SPACES = new Set([' ', '\u00a0', '\u202f']);
/** Apostrophes people type for a locale that groups with one (de-CH). */
const APOSTROPHES = new Set(["'", '\u2019']);

/** How `locale` writes numbers, read from Intl itself. */
export function numberSeparators(locale: string): NumberSeparators {
  const parts = new Intl.NumberFormat(locale).formatToParts(123_456_789.5);
  const group = parts.find((part) => part.type === 'group')?.value ?? ',';
  const decimal = parts.find((part) => part.type === 'decimal')?.value ?? '.';
  const integers = parts.filter((part) => part.type === 'integer').map((part) => part.value.length);
  const primaryGroup = integers.at(-1) ?? 3;
  const secondaryGroup = integers.length > 2 ? (integers.at(-2) ?? primaryGroup) : primaryGroup;
  const plain = new Intl.NumberFormat(locale, { useGrouping: false });
  const digits = Array.from({ length: 10 }, (_, digit) => plain.format(digit));
  return { group, decimal, primaryGroup, secondaryGroup, digits };
}

function sameSeparator(typed: string, separator: string): boolean {
  if (typed === separator) return true;
  if (SPACES.has(separator)) return SPACES.has(typed);
  if (APOSTROPHES.has(separator)) return APOSTROPHES.has(typed);
  return false;
}

/** The locale's way of writing 1234.5, for messages: `1,234.5` in en-US. */
function example(locale: string, digits: number): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(digits === 0 ? 1234 : 1234.5);
}

/**
 * What a person typed, in `currency`'s major units and `locale`'s way of writing numbers, as
 * minor units: "1,000.5" en-US EUR → 100050; "1.000,5" de-DE EUR → 100050; "1,000" en-US KWD →
 * 1000000. Refused with a message saying why: anything but digits and the locale's two
 * separators, a grouping that is not the locale's (so possibly the other convention), more
 * decimals than the currency has, zero.
 */
export function parseLocaleAmount(input: string, currency: string, locale: string): AmountReading {
  const code = currency.toUpperCase();
  const places = minorUnits(code);
  const separators = numberSeparators(locale);
  const refuse = (why: string): AmountReading => ({ ok: false, message: `${why} Write it as ${example(locale, places)}.` });
  const text = input.trim();
  if (text === '') return { ok: false, message: 'Enter an amount.' };

  let integer = '';
  let fraction: string | null = null;
  const groups: string[] = [];
  for (const char of text) {
    const latin = separators.digits.indexOf(char);
    const digit = latin >= 0 ? String(latin) : /[0-9]/.test(char) ? char : null;
    if (digit !== null) {
      if (fraction === null) integer += digit;
      else fraction += digit;
    } else if (char === separators.decimal) {
      if (fraction !== null) return refuse(`“${text}” has more than one decimal separator.`);
      if (integer === '') return refuse(`“${text}” has no digits before the decimal separator.`);
      groups.push(integer);
      integer = '';
      fraction = '';
    } else if (sameSeparator(char, separators.group)) {
      if (fraction !== null) return refuse(`“${text}” groups digits after the decimal separator.`);
      if (integer === '') return refuse(`“${text}” is not an amount.`);
      groups.push(integer);
      integer = '';
    } else {
      return refuse(`“${text}” is not an amount: only digits and the separators of your locale (${locale}) are understood.`);
    }
  }
  if (fraction === null) groups.push(integer);
  if (groups.length === 0 || groups.some((group) => group === '')) return refuse(`“${text}” is not an amount.`);
  if (!groupedAsTheLocaleDoes(groups, separators)) {
    return refuse(
      `“${text}” is ambiguous: in your locale (${locale}) “${separators.group.trim() || 'space'}” separates groups of thousands, and “${separators.decimal}” marks the decimals.`,
    );
  }
  const fractionDigits = fraction ?? '';
  if (fractionDigits.length > places) {
    return refuse(places === 0 ? `${code} has no decimals.` : `${code} has at most ${places} decimal${places === 1 ? '' : 's'}.`);
  }
  const minor = Number(`${groups.join('')}${fractionDigits.padEnd(places, '0')}`);
  if (!Number.isSafeInteger(minor)) return refuse(`“${text}” is too large.`);
  if (minor === 0) return { ok: false, message: 'Enter an amount greater than zero.' };
  return { ok: true, amount: minor };
}

/** Ungrouped digits, or groups as the locale makes them: a first group of 1 to `secondary` digits, then full groups. */
function groupedAsTheLocaleDoes(groups: string[], separators: NumberSeparators): boolean {
  if (groups.length === 1) return true;
  const last = groups.length - 1;
  return groups.every((group, index) => {
    if (index === last) return group.length === separators.primaryGroup;
    if (index === 0) return group.length >= 1 && group.length <= separators.secondaryGroup;
    return group.length === separators.secondaryGroup;
  });
}

/** An amount in minor units as the money input shows it in `locale`, without the currency: 150000 EUR de-DE → "1.500,00". */
export function formatAmountInput(amount: number, currency: string, locale: string): string {
  const places = minorUnits(currency);
  const units = String(Math.abs(Math.trunc(amount))).padStart(places + 1, '0');
  const whole = places === 0 ? units : units.slice(0, -places);
  const format = new Intl.NumberFormat(locale, { minimumFractionDigits: places, maximumFractionDigits: places });
  // Intl rounds through a float: format the integer part alone, then join the exact decimals.
  const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(BigInt(whole));
  if (places === 0) return integer;
  const decimal = format.formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
  const digits = numberSeparators(locale).digits;
  const fraction = [...units.slice(-places)].map((digit) => digits[Number(digit)] ?? digit).join('');
  return `${integer}${decimal}${fraction}`;
}
