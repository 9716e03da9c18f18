import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
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

  it('is taken by the bin itself, which changes V8 flags only after reading it: a run leaves the file as the build wrote it', async () => {
    const cache = readdirSync(new URL('../dist/', import.meta.url)).find((name) => name.endsWith('.cache'));
    const path = new URL(`../dist/${cache}`, import.meta.url);
    const before = statSync(path);
    // A bin whose V8 refused the cache writes its own at exit, through a rename: a new file.
    await runCli(['--help']);
    const after = statSync(path);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('a cache the bin writes itself is the one its next start takes', async () => {
    // A copy of the package without its cache, beside the repository's node_modules.
    const root = mkdtempSync(join(tmpdir(), 'payframe-code-cache-'));
    try {
      const server = join(root, 'packages', 'server');
      mkdirSync(server, { recursive: true });
      for (const folder of ['bin', 'dist']) cpSync(fileURLToPath(new URL(`../${folder}`, import.meta.url)), join(server, folder), { recursive: true });
      for (const name of readdirSync(join(server, 'dist'))) if (name.endsWith('.cache')) rmSync(join(server, 'dist', name));
      symlinkSync(fileURLToPath(new URL('../../../node_modules', import.meta.url)), join(root, 'node_modules'));
      const run = () => promisify(execFile)(process.execPath, [join(server, 'bin', 'payframe.js'), '--help']);
      const cacheOf = () => readdirSync(join(server, 'dist')).filter((name) => name.endsWith('.cache'));
      await run();
      expect(cacheOf()).toHaveLength(1);
      const written = statSync(join(server, 'dist', cacheOf()[0] ?? ''));
      await run();
      const after = statSync(join(server, 'dist', cacheOf()[0] ?? ''));
      expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
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
