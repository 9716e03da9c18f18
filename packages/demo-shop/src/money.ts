import { decimalAmount, formatAmount, minorUnits } from '@payframe/contract/money-format';

/** Amounts are integer minor units, as the Payframe API counts them; no floats anywhere. */

const LOCALE = 'en-IE';

/** 1250 EUR → "€12.50", in ISO 4217 minor units like every Payframe page (50000 HUF → "HUF 500.00"). */
export function formatMoney(amount: number, currency: string): string {
  return formatAmount(amount, currency, LOCALE);
}

/** 1250 EUR → "12.50": the decimal text of an amount, as a shopper types it. */
export const toDecimal = (amount: number, currency: string): string => decimalAmount(amount, currency);

/** "12", "12.5", "12,50" → 1250 for EUR; null for anything else (signs, exponents, too many decimals, zero). */
export function parseMoney(input: string, currency: string): number | null {
  const digits = minorUnits(currency);
  const match = /^(\d{1,8})(?:[.,](\d*))?$/.exec(input.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(`${match[1]}${fraction.padEnd(digits, '0')}`);
  return Number.isSafeInteger(minor) && minor > 0 ? minor : null;
}
