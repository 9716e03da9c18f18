import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DECLINE_REASONS, ERROR_CODES } from './errors.ts';

const reference = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

describe('docs/api.md documents every error code', () => {
  it.each(Object.entries(ERROR_CODES))('%s with its status and type', (code, { status, type }) => {
    // Cells may be padded: the formatter aligns the table's columns.
    const row = reference.split('\n').find((line) => new RegExp(`^\\|\\s*\`${code}\`\\s*\\|`).test(line));
    expect(row, `docs/api.md error table has no row for ${code}`).toBeDefined();
    const [, , documentedStatus, documentedType] = row?.split('|').map((cell) => cell.trim()) ?? [];
    expect(documentedStatus?.split(' / ')).toContain(String(status));
    expect(documentedType).toBe(type);
  });

  it.each(DECLINE_REASONS)('decline reason %s', (reason) => {
    expect(reference).toContain(`\`${reason}\``);
  });
});
