import { describe, expect, it } from 'vitest';
import { parseBracketed } from './body-parsers.ts';

describe('metadata in a form body', () => {
  it('takes a key made only of digits as a key, as JSON does, percent-encoded or not', () => {
    expect(parseBracketed('metadata[0]=x&amount=5')).toStrictEqual({ metadata: { 0: 'x' }, amount: '5' });
    expect(parseBracketed('metadata%5B12%5D=y&metadata[order]=z')).toStrictEqual({ metadata: { 12: 'y', order: 'z' } });
  });

  it('keeps a list sent as one a list, for the schema to refuse, and leaves other lists alone', () => {
    expect(parseBracketed('metadata[]=x')).toStrictEqual({ metadata: ['x'] });
    expect(parseBracketed('metadata[0]=x&metadata[]=y')).toStrictEqual({ metadata: ['x', 'y'] });
    expect(parseBracketed('events[0]=a&events[1]=b&metadata[7]=c')).toStrictEqual({ events: ['a', 'b'], metadata: { 7: 'c' } });
  });
});
