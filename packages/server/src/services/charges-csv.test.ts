import { describe, expect, it } from 'vitest';
import { csvCell } from './charges-csv.ts';

describe('csvCell', () => {
  it.each([
    ['plain', false, 'plain'],
    ['a,b', true, '"a,b"'],
    ['say "hi"', true, '"say ""hi"""'],
    ['two\nlines', true, '"two\nlines"'],
    ['=SUM(A1:A2)', true, "'=SUM(A1:A2)"],
    ['+1', true, "'+1"],
    ['-1', true, "'-1"],
    ['@cmd', true, "'@cmd"],
    ['\tx', true, "'\tx"],
    ['=1,2', true, `"'=1,2"`],
    ['-1.50', false, '-1.50'],
    ['', true, ''],
  ])('%j (text: %s) is %j', (value, text, cell) => {
    expect(csvCell(value, text)).toBe(cell);
  });
});
