/** Amounts are integer minor units, as the Payframe API counts them; no floats anywhere. */

const LOCALE = 'en-IE';

export function minorDigits(currency: string): number {
  return new Intl.NumberFormat(LOCALE, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** 1250 EUR → "12.50": the decimal text of an amount, as a shopper types it. */
export function toDecimal(amount: number, currency: string): string {
  const digits = minorDigits(currency);
  const text = String(amount).padStart(digits + 1, '0');
  return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** 1250 EUR → "€12.50". Intl formats a decimal string exactly, with no float in between. */
export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat(LOCALE, { style: 'currency', currency }).format(toDecimal(amount, currency) as `${number}`);
}

/** "12", "12.5", "12,50" → 1250 for EUR; null for anything else (signs, exponents, too many decimals, zero). */
export function parseMoney(input: string, currency: string): number | null {
  const digits = minorDigits(currency);
  const match = /^(\d{1,8})(?:[.,](\d*))?$/.exec(input.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(`${match[1]}${fraction.padEnd(digits, '0')}`);
  return Number.isSafeInteger(minor) && minor > 0 ? minor : null;
}
