import { TEST_CARDS } from '@payframe/contract/test-cards';
import { cardNumber } from 'card-validator/dist/card-number.js';
import luhn10 from 'card-validator/dist/luhn-10.js';
import { describe, expect, it } from 'vitest';
import { luhn, verifyNumber } from './card-number.ts';
import { CARD_TYPES } from './card-types.ts';

function verdict(verification: ReturnType<typeof verifyNumber> | ReturnType<typeof cardNumber>) {
  const { card, isPotentiallyValid, isValid } = verification;
  return { isPotentiallyValid, isValid, card: card && { type: card.type, lengths: card.lengths, gaps: card.gaps, code: card.code.size } };
}

/** Every number of up to four digits, then each pattern's edges padded to every card length, with and without a Luhn check digit. */
function numbers(): string[] {
  const all = new Set<string>(['']);
  for (let length = 1; length <= 4; length++) for (let value = 0; value < 10 ** length; value++) all.add(String(value).padStart(length, '0'));
  const edges = CARD_TYPES.flatMap((card) =>
    card.patterns.flatMap((pattern) => (typeof pattern === 'number' ? [pattern] : [pattern[0] - 1, ...pattern, pattern[1] + 1])),
  );
  for (const edge of edges) {
    const prefix = String(edge);
    for (let length = prefix.length; length <= 19; length++) {
      const body = prefix.padEnd(length - 1, '7');
      for (const check of '0123456789') all.add(`${body}${check}`.slice(0, length));
    }
  }
  for (const card of Object.values(TEST_CARDS)) all.add(card.number);
  return [...all];
}

describe('verifyNumber', () => {
  it('agrees with card-validator on every number tried', () => {
    const tried = numbers();
    expect(tried.length).toBeGreaterThan(20_000);
    const disagreements = tried.filter((digits) => JSON.stringify(verdict(verifyNumber(digits))) !== JSON.stringify(verdict(cardNumber(digits))));
    expect(disagreements.slice(0, 5).map((digits) => [digits, verdict(verifyNumber(digits)), verdict(cardNumber(digits))])).toEqual([]);
  });
});

describe('luhn', () => {
  it('agrees with card-validator’s', () => {
    expect(numbers().filter((digits) => luhn(digits) !== luhn10(digits))).toEqual([]);
  });
});
