// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Gzipped budgets. About 26 KB of either is zod, which parses every answer with the contract's
 * schemas; the rest is Preact, preact-iso, the pages and the stylesheet.
 */
const FIRST_LOAD_BUDGET = 45 * 1024;
const TOTAL_BUDGET = 63 * 1024;

// The build the test command made (`npm run build`, once per run): what the server serves and what is packed.
const outDir = fileURLToPath(new URL('../dist', import.meta.url));

const assets = () => readdirSync(join(outDir, 'assets')).filter((file) => !file.endsWith('.gz'));
const gzipped = (file: string) => statSync(join(outDir, `${file}.gz`)).size;
const indexHtml = () => readFileSync(join(outDir, 'index.html'), 'utf8');

describe('the dashboard build', () => {
  it(`loads its first page within ${FIRST_LOAD_BUDGET} bytes gzipped`, () => {
    const referenced = [...indexHtml().matchAll(/(?:src|href)="\/dashboard\/(assets\/[^"]+)"/g)].map((match) => match[1] ?? '');
    expect(referenced.some((file) => file.endsWith('.js'))).toBe(true);
    expect(referenced.some((file) => file.endsWith('.css'))).toBe(true);
    const total = ['index.html', ...referenced].reduce((sum, file) => sum + gzipped(file), 0);
    expect(total, `first load: ${total} B gzipped`).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
  });

  it(`keeps every page together within ${TOTAL_BUDGET} bytes gzipped`, () => {
    const total = ['index.html', ...assets().map((file) => `assets/${file}`)].reduce((sum, file) => sum + gzipped(file), 0);
    expect(total, `all assets: ${total} B gzipped`).toBeLessThanOrEqual(TOTAL_BUDGET);
  });

  it('names every asset by its content hash under /dashboard/', () => {
    for (const file of assets()) expect(file).toMatch(/^[\w-]+-[\w-]{8}\.(js|css)$/);
    expect(indexHtml()).not.toMatch(/(?:src|href)="\/(?!dashboard\/)/);
  });

  it('has no inline script or style for the CSP to allow', () => {
    const html = indexHtml();
    for (const tag of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) expect(tag).toMatch(/^<script [^>]*src="[^"]+"[^>]*><\/script>$/);
    expect(html).not.toMatch(/<style\b|\sstyle="|\son[a-z]+="/i);
    // No asset inlined as a data: URL: the one is the empty icon that spares a request for /favicon.ico.
    expect(html.match(/data:[^"']*/g)).toEqual(['data:,']);
    expect(html).toContain('<link rel="icon" href="data:," />');
  });
});
