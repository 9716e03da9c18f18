import type { Brand } from '@payframe/contract';

const BRAND_NAMES: Record<Exclude<Brand, 'UNKNOWN'>, string> = {
  VISA: 'Visa',
  MASTERCARD: 'Mastercard',
  MAESTRO: 'Maestro',
  AMEX: 'American Express',
  DISCOVER: 'Discover',
  JCB: 'JCB',
  DINERS: 'Diners Club',
  UNIONPAY: 'UnionPay',
};

/** The brand as shoppers know it; an unknown brand is just "Card" in the page's language. */
export function brandName(brand: Brand, unknown: string): string {
  return brand === 'UNKNOWN' ? unknown : BRAND_NAMES[brand];
}
