import type { Brand } from '@payframe/contract';
import { BRAND_BY_CARD_VALIDATOR_TYPE } from '@payframe/contract/brands';
import { verifyNumber } from './card-number.ts';

export type BrandRules = {
  brand: Brand;
  /** Valid lengths in digits; an unknown brand may have 12 to 19. */
  lengths: number[];
  /** Digit positions after which a space is shown: 4-4-4-4, or 4-6-5 for Amex. */
  gaps: number[];
  cvcLengths: number[];
};

const UNKNOWN: BrandRules = { brand: 'UNKNOWN', lengths: [12, 13, 14, 15, 16, 17, 18, 19], gaps: [4, 8, 12], cvcLengths: [3, 4] };

export function brandRules(digits: string): BrandRules {
  const card = verifyNumber(digits).card;
  const brand = card && BRAND_BY_CARD_VALIDATOR_TYPE[card.type];
  if (!card || !brand) return UNKNOWN;
  return { brand, lengths: card.lengths, gaps: card.gaps, cvcLengths: [card.code.size] };
}

export function maxLength(rules: BrandRules): number {
  return Math.max(...rules.lengths);
}
