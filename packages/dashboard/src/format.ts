import { formatAmount } from '@payframe/contract/money-format';

/** The browser's language, so merchants read amounts and dates as they are used to. */
export const locale = (): string => (typeof navigator === 'undefined' ? 'en' : navigator.language || 'en');

/** ISO 4217 minor units, formatted as on the 3-D Secure page: 250 EUR → "€2.50". */
export function money(amount: number, currency: string): string {
  return formatAmount(amount, currency, locale());
}

/** Epoch seconds as a date and time in the browser's time zone. */
export function dateTime(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' });
}

/** `CHARGE_SUCCESS` → "Charge success". */
export function label(constant: string): string {
  const words = constant.toLowerCase().replace(/[_.]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A ratio as a percentage: 0.5 → "50%", 0.8333 → "83.3%". */
export function percent(ratio: number): string {
  return new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 1 }).format(ratio);
}
