import { readdirSync, readFileSync, statSync } from 'node:fs';
import Module from 'node:module';
import { Script } from 'node:vm';
import { runCli } from '@payframe/server/process';
import { describe, expect, it } from 'vitest';

const bundle = new URL('../dist/cli.cjs', import.meta.url);

describe('the CLI bundle and its code cache (bin/payframe.js)', () => {
  it("the cache the build wrote is named for the bundle's build and accepted by this Node for it", () => {
    const text = readFileSync(bundle, 'latin1');
    const build = /^\/\/ payframe build ([\w-]+)\n/.exec(text)?.[1];
    expect(readdirSync(new URL('../dist/', import.meta.url)).filter((name) => name.endsWith('.cache'))).toEqual([`cli.cjs.${build}.cache`]);
    const source = Module.wrap(text);
    const cachedData = readFileSync(new URL(`../dist/cli.cjs.${build}.cache`, import.meta.url));
    expect(new Script(source, { filename: bundle.pathname, cachedData }).cachedDataRejected).toBe(false);
    // V8 compares lengths only: hence a cache per build.
    expect(new Script(`${source}\n// changed`, { filename: bundle.pathname, cachedData }).cachedDataRejected).toBe(true);
  });

  it('is taken by the bin itself, whose V8 flags are set after it is read: a run leaves the file as the build wrote it', async () => {
    const cache = readdirSync(new URL('../dist/', import.meta.url)).find((name) => name.endsWith('.cache'));
    const path = new URL(`../dist/${cache}`, import.meta.url);
    const before = statSync(path);
    // A bin whose V8 refused the cache writes its own at exit, through a rename: a new file.
    await runCli(['--help']);
    const after = statSync(path);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('holds characters beyond ASCII only in comments, so the bin may read it as Latin-1', () => {
    const lines = readFileSync(bundle, 'utf8').split('\n');
    const outsideComments = lines.filter((line) => {
      const at = line.search(/[^\p{ASCII}]/u);
      if (at === -1) return false;
      const trimmed = line.trimStart();
      return !(trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*') || line.slice(0, at).includes('//'));
    });
    expect(outsideComments).toEqual([]);
  });
});
