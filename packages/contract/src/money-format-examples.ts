export type MoneyExample = { amount: number; currency: string /** In the `en-IE` locale, with plain spaces. */; text: string };

const twoDigits = (currency: string): MoneyExample => ({ amount: 123_456, currency, text: `${currency} 1,234.56` });

/**
 * One amount of each currency whose ISO 4217 minor units differ from Intl's default (CLDR) digits,
 * as every Payframe page must show it. Test data: the contract's, the 3-D Secure page's and the demo
 * shop's tests each render all of them.
 */
export const ISO_DIGITS_EXAMPLES: readonly MoneyExample[] = [
  ...['AFN', 'ALL', 'COP', 'HUF', 'IDR', 'IRR', 'KPW', 'LAK', 'LBP', 'MGA', 'MMK', 'PKR', 'SLL', 'SOS', 'SYP', 'YER'].map(twoDigits),
  { amount: 1_234_567, currency: 'IQD', text: 'IQD 1,234.567' },
];

/** Intl writes no-break and narrow no-break spaces in some locales: compare with plain spaces. */
export const plainSpaces = (text: string): string => text.replace(/[\u00a0\u202f]/g, ' ');
