import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { startDemoShop } from './support/demo-shop.ts';

// docs/qa-kit.md's playwright.config.ts and example test (and the README's copy of the test) are e2e/qa-kit-example/, byte for byte,
// and run here as written: Playwright on that config, against the demo shop of `npm start`.

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const EXAMPLE_FILES = ['playwright.config.ts', 'tests/checkout.test.ts'];

/** The fenced blocks of the doc that name a file: ```ts title="path" */
function titledBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of markdown.matchAll(/^```\w+ title="([^"]+)"\n([\s\S]*?)^```$/gm)) blocks.set(match[1] ?? '', match[2] ?? '');
  return blocks;
}

test('the QA kit guide shows the example config and test exactly as the repository holds them', () => {
  const blocks = titledBlocks(readFileSync(root('docs/qa-kit.md'), 'utf8'));
  expect([...blocks.keys()]).toEqual(EXAMPLE_FILES);
  for (const file of EXAMPLE_FILES) {
    expect(blocks.get(file), file).toBe(readFileSync(root(`e2e/qa-kit-example/${file}`), 'utf8'));
  }
});

test('the README shows the same example test', () => {
  const blocks = titledBlocks(readFileSync(root('README.md'), 'utf8'));
  const file = 'tests/checkout.test.ts';
  expect(blocks.get(file), file).toBe(readFileSync(root(`e2e/qa-kit-example/${file}`), 'utf8'));
});

test('the QA kit guide example passes against the demo shop, run with its own config', async () => {
  test.setTimeout(180_000);
  const shop = await startDemoShop();
  try {
    const run = await promisify(execFile)(
      process.execPath,
      [root('node_modules/@playwright/test/cli.js'), 'test', '-c', root('e2e/qa-kit-example/playwright.config.ts'), '--reporter=line', '--output', root('test-results/qa-kit-example')],
      { cwd: root(''), env: { ...process.env, BASE_URL: shop.url, CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' }, timeout: 150_000 },
    ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`the example failed:\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
    });
    expect(run.stdout).toMatch(/2 passed/);
  } finally {
    await shop.stop();
  }
});
