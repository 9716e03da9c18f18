import creditCardType from 'credit-card-type';
import { describe, expect, it } from 'vitest';
import { decodeCardTypes, encodeCardTypes } from './card-codec.ts';
import { CARD_TABLE } from './card-table.ts';

describe('the card table as a string', () => {
  it("reads back as credit-card-type's table: every type, prefix, range, length, gap and code size, in order", () => {
    const library = creditCardType('').map(({ type, patterns, lengths, gaps, code }) => ({ type, patterns, lengths, gaps, code: { size: code.size } }));
    expect(decodeCardTypes(CARD_TABLE)).toEqual(library);
  });

  it('reads back single prefixes, ranges and one-element lists', () => {
    const types = [{ type: 'x', patterns: [7, [100, 100] as [number, number], [2221, 2720] as [number, number]], lengths: [16], gaps: [4], code: { size: 3 } }];
    expect(decodeCardTypes(encodeCardTypes(types))).toEqual(types);
  });
});
