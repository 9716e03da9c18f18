// The card table as one string, about a third smaller gzipped than the same data as literals:
// `visa|4|16 18 19|4 8 12|3,mastercard|51+4 2221+8 …`, a range written as its start and its span.

export type CardType = {
  type: string;
  /** A prefix, or an inclusive range of prefixes of the same length. */
  patterns: Array<number | [number, number]>;
  lengths: number[];
  gaps: number[];
  code: { size: number };
};

export function encodeCardTypes(types: readonly CardType[]): string {
  const patterns = (card: CardType) => card.patterns.map((pattern) => (typeof pattern === 'number' ? pattern : `${pattern[0]}+${pattern[1] - pattern[0]}`));
  return types.map((card) => [card.type, patterns(card).join(' '), card.lengths.join(' '), card.gaps.join(' '), card.code.size].join('|')).join(',');
}

export function decodeCardTypes(table: string): CardType[] {
  const numbers = (list = '') => list.split(' ').map(Number);
  return table.split(',').map((row) => {
    const [type = '', patterns, lengths, gaps, size] = row.split('|');
    return {
      type,
      patterns: (patterns ?? '').split(' ').map((pattern) => {
        const [start = 0, span] = numbers(pattern.replace('+', ' '));
        return span === undefined ? start : [start, start + span];
      }),
      lengths: numbers(lengths),
      gaps: numbers(gaps),
      code: { size: Number(size) },
    };
  });
}
