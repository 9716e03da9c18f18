// credit-card-type's table (the one card-validator, and so the server, detects brands with), in its
// own test order, cut to what the frame reads. The widget build evaluates this module and bundles the
// resulting data only, not the library (scripts/build.ts).
import creditCardType from 'credit-card-type';

export type CardType = {
  type: string;
  /** A prefix, or an inclusive range of prefixes of the same length. */
  patterns: Array<number | [number, number]>;
  lengths: number[];
  gaps: number[];
  code: { size: number };
};

export const CARD_TYPES: CardType[] = creditCardType('').map(({ type, patterns, lengths, gaps, code }) => ({
  type,
  patterns: patterns as CardType['patterns'],
  lengths,
  gaps,
  code: { size: code.size },
}));
