import { decimalAmount, formatAmount, parseDecimalAmount } from '@payframe/contract/money-format';

/** Amounts are integer minor units, as the Payframe API counts them; no floats anywhere. */

const LOCALE = 'en-IE';

/** 1250 EUR → "€12.50", in ISO 4217 minor units like every Payframe page (50000 HUF → "HUF 500.00"). */
export function formatMoney(amount: number, currency: string): string {
  return formatAmount(amount, currency, LOCALE);
}

/** 1250 EUR → "12.50": the decimal text of an amount, as a shopper types it. */
export const toDecimal = (amount: number, currency: string): string => decimalAmount(amount, currency);

/** "12", "12.5", "12,50" → 1250 for EUR; null for anything else (signs, exponents, too many decimals, zero). */
export const parseMoney = parseDecimalAmount;
