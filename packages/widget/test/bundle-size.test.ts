// @vitest-environment node
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, DIST_DIR, FRAME_CSP_FILE } from '../scripts/build.ts';

/**
 * docs/design.md "The widget", "Budgets": what the merchant page loads, and what the iframe loads,
 * gzipped. The loader's 3 KB is read as 3,000 bytes, the stricter reading, and holds with zlib's
 * default level too, as anyone weighing the file would gzip it, not only with the zopfli we serve.
 */
const LOADER_BUDGET = 3_000;
const FRAME_BUDGET = 15 * 1024;

// The build the test command made (`npm run build`, once per run): what the server serves and what is packed.
const outDir = DIST_DIR;

function gzippedSize(file: string): number {
  return statSync(join(outDir, `${file}.gz`)).size;
}

describe('bundle sizes', () => {
  it(`keeps the loader within ${LOADER_BUDGET} bytes gzipped, with no eval`, async ({ annotate }) => {
    const size = gzippedSize('payframe.js');
    const code = readFileSync(join(outDir, 'payframe.js'), 'utf8');
    const zlibSize = gzipSync(code).length;
    await annotate(`loader payframe.js: ${size} B gzipped as served, ${zlibSize} B with zlib's default level`);
    expect(size).toBeLessThanOrEqual(LOADER_BUDGET);
    expect(zlibSize).toBeLessThanOrEqual(LOADER_BUDGET);
    expect(code).not.toMatch(/\beval\(|new Function\(/);
    // The compile hint must be the script's first line, where V8 looks for it.
    expect(code.startsWith(COMPILE_HINT)).toBe(true);
  });

  it(`keeps the frame page, its script and styles inline, within ${FRAME_BUDGET} bytes gzipped`, async ({ annotate }) => {
    const size = gzippedSize('frame.html');
    await annotate(`frame: ${size} B gzipped`);
    expect(size).toBeLessThanOrEqual(FRAME_BUDGET);
  });

  it('bundles the protocol schemas and the card types as data, not zod or credit-card-type', () => {
    const code = readFileSync(join(outDir, 'frame.html'), 'utf8');
    expect(code).not.toContain('_zod');
    expect(code).not.toContain('resetModifications');
    expect(code).toContain('american-express');
  });

  it('precompresses every file to gzip that reads back as the file itself', () => {
    const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(js|css|html)$/.test(file));
    expect(files.sort()).toEqual(['frame.html', 'payframe.js']);
    for (const file of files) expect(gunzipSync(readFileSync(join(outDir, `${file}.gz`))).equals(readFileSync(join(outDir, file)))).toBe(true);
  });

  it("inlines the frame's script and styles, and writes their hashes for its Content-Security-Policy", () => {
    expect(readdirSync(outDir).sort()).toEqual([FRAME_CSP_FILE, 'frame.html', 'frame.html.gz', 'payframe.js', 'payframe.js.gz']);
    const page = readFileSync(join(outDir, 'frame.html'), 'utf8');
    const inline = (tag: string) => [...page.matchAll(new RegExp(`<${tag}[^>]*>([^]*?)</${tag}>`, 'g'))].map((match) => match[1] ?? '');
    const hashOf = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
    const [scripts, styles] = [inline('script'), inline('style')];
    expect([scripts.length, styles.length]).toEqual([1, 1]);
    expect(page).toContain('<script type="module">');
    // The compile hint must be the script's first line, where V8 looks for it.
    expect(scripts[0]).toMatch(/^\/\/# allFunctionsCalledOnLoad\n/);
    expect(JSON.parse(readFileSync(join(outDir, FRAME_CSP_FILE), 'utf8'))).toEqual({ scripts: scripts.map(hashOf), styles: styles.map(hashOf) });
  });
});
