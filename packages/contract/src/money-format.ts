/**
 * Amounts are integers in ISO 4217 minor units throughout the API. Intl's default fraction digits come from CLDR, which differs from ISO 4217 for these currencies: 50000 HUF
 * minor units are HUF 500.00, not HUF 50,000. Every page that shows an amount formats it here.
 * Plain data and Intl only (no zod), so any package can take it.
 */
const ISO_MINOR_UNIT_EXCEPTIONS: Readonly<Record<string, number>> = {
  AFN: 2,
  ALL: 2,
  COP: 2,
  HUF: 2,
  IDR: 2,
  IQD: 3,
  IRR: 2,
  KPW: 2,
  LAK: 2,
  LBP: 2,
  MGA: 2,
  MMK: 2,
  PKR: 2,
  SLL: 2,
  SOS: 2,
  SYP: 2,
  YER: 2,
};

/** The currency's ISO 4217 minor units: JPY 0, EUR 2, HUF 2, BHD 3. */
export function minorUnits(currency: string): number {
  const code = currency.toUpperCase();
  const iso = ISO_MINOR_UNIT_EXCEPTIONS[code];
  if (iso !== undefined) return iso;
  return new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * An amount in minor units, formatted for `locale`: 500 EUR → "€5.00" (en), "5,00 €" (fr);
 * 500 JPY → "¥500"; 1234 BHD → "BHD 1.234". Exact: the value reaches Intl as a decimal string, not a float.
 */
export function formatAmount(amount: number, currency: string, locale: string): string {
  const digits = minorUnits(currency);
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return format.format(decimalAmount(amount, currency));
}

/** The amount as a plain decimal in major units: 12345 EUR → "123.45", 5 BHD → "0.005", 500 JPY → "500". */
export function decimalAmount(amount: number, currency: string): `${number}` {
  const digits = minorUnits(currency);
  const sign = amount < 0 ? '-' : '';
  const units = String(Math.abs(Math.trunc(amount))).padStart(digits + 1, '0');
  if (digits === 0) return `${sign}${units}` as `${number}`;
  return `${sign}${units.slice(0, -digits)}.${units.slice(-digits)}` as `${number}`;
}

/**
 * What a person typed in major units, as minor units: "2.5" and "2,50" EUR → 250; "500" JPY → 500.
 * Null for anything else: signs, exponents, more decimals than the currency has, zero.
 */
export function parseDecimalAmount(input: string, currency: string): number | null {
  const digits = minorUnits(currency);
  const match = /^(\d{1,9})(?:[.,](\d*))?$/.exec(input.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(`${match[1]}${fraction.padEnd(digits, '0')}`);
  return Number.isSafeInteger(minor) && minor > 0 ? minor : null;
}
