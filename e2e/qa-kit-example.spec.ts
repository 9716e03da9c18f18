import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

// docs/qa-kit.md's playwright.config.ts and example test (and the README's copy of the test) are e2e/qa-kit-example/, byte for byte.
// tests/packed-install.test.ts runs them as written, from the packed tarballs in a project outside the repository.

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

test("the README's ten-line QA spec is the example test's, as written", () => {
  const readme = readFileSync(root('README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## A QA spec'));
  const spec = /^```ts\n([\s\S]*?)^```$/m.exec(section)?.[1];
  expect(spec, 'README has no ```ts block under "## A QA spec"').toBeDefined();
  expect(readFileSync(root('e2e/qa-kit-example/tests/checkout.test.ts'), 'utf8')).toContain(spec);
});
