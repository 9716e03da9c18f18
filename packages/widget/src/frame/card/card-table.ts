// credit-card-type's table (the one card-validator, and so the server, detects brands with), in its
// own test order, cut to what the frame reads. The widget build evaluates this module and bundles the
// resulting string only, not the library (scripts/build.ts); card-types.ts reads it back.
import creditCardType from 'credit-card-type';
import { type CardType, encodeCardTypes } from './card-codec.ts';

export const CARD_TABLE = encodeCardTypes(
  creditCardType('').map(({ type, patterns, lengths, gaps, code }) => ({
    type,
    patterns: patterns as CardType['patterns'],
    lengths,
    gaps,
    code: { size: code.size },
  })),
);
