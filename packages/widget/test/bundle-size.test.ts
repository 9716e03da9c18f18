// @vitest-environment node
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWidget } from '../scripts/build.ts';

/** docs/design.md "The widget", "Budgets": what the merchant page loads, and what the iframe loads, gzipped. */
const LOADER_BUDGET = 3 * 1024;
const FRAME_BUDGET = 15 * 1024;

let outDir: string;
beforeAll(async () => {
  // A fresh build of the current sources, away from the dist/ a running server may be serving.
  outDir = mkdtempSync(join(tmpdir(), 'payframe-widget-'));
  await buildWidget(outDir);
}, 120_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

function gzippedSize(file: string): number {
  return statSync(join(outDir, `${file}.gz`)).size;
}

describe('bundle sizes', () => {
  it(`keeps the loader within ${LOADER_BUDGET} bytes gzipped, with no eval`, async ({ annotate }) => {
    const size = gzippedSize('payframe.js');
    await annotate(`loader payframe.js: ${size} B gzipped`);
    expect(size).toBeLessThanOrEqual(LOADER_BUDGET);
    expect(readFileSync(join(outDir, 'payframe.js'), 'utf8')).not.toMatch(/\beval\(|new Function\(/);
  });

  it(`keeps the frame (page and every asset) within ${FRAME_BUDGET} bytes gzipped`, async ({ annotate }) => {
    const files = ['frame.html', ...readdirSync(join(outDir, 'assets')).filter((file) => !file.endsWith('.gz')).map((file) => `assets/${file}`)];
    const sizes = Object.fromEntries(files.map((file) => [file, gzippedSize(file)]));
    const total = Object.values(sizes).reduce((sum, size) => sum + size, 0);
    await annotate(`frame: ${total} B gzipped (${Object.entries(sizes).map(([file, size]) => `${file} ${size} B`).join(', ')})`);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    expect(total).toBeLessThanOrEqual(FRAME_BUDGET);
  });

  it('bundles the protocol schemas and the card types as data, not zod or credit-card-type', () => {
    for (const file of readdirSync(join(outDir, 'assets')).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(join(outDir, 'assets', file), 'utf8');
      expect(code).not.toContain('_zod');
      expect(code).not.toContain('resetModifications');
      expect(code).toContain('american-express');
    }
  });

  it('precompresses every file to gzip that reads back as the file itself', () => {
    const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(js|css|html)$/.test(file));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) expect(gunzipSync(readFileSync(join(outDir, `${file}.gz`))).equals(readFileSync(join(outDir, file)))).toBe(true);
  });

  it('names every frame asset by its content hash', () => {
    for (const file of readdirSync(join(outDir, 'assets')).filter((name) => !name.endsWith('.gz'))) {
      expect(file).toMatch(/^[\w]+-[\w-]{8}\.(js|css)$/);
    }
  });
});
