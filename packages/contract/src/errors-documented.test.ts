import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DECLINE_REASONS, ERROR_CODES } from './errors.ts';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('the README documents every error code', () => {
  it.each(Object.entries(ERROR_CODES))('%s with its status and type', (code, { status, type }) => {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
    expect(row, `README error table has no row for ${code}`).toBeDefined();
    expect(row).toContain(String(status));
    expect(row).toContain(type);
  });

  it.each(DECLINE_REASONS)('decline reason %s', (reason) => {
    expect(readme).toContain(`\`${reason}\``);
  });
});
