import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * docs/qa-kit.md's install: the packed tarball in a project outside this repository, next to
 * Playwright. There @payframe/contract (private, TypeScript sources) does not exist: the kit's
 * JavaScript must carry what it uses of it.
 */
describe('the packed @payframe/qa-kit', () => {
  const project = mkdtempSync(join(tmpdir(), 'qa-kit-consumer-'));
  let packed: { name: string; files: Array<{ path: string }>; filename: string };

  beforeAll(async () => {
    const { stdout } = await run('npm', ['pack', '-w', '@payframe/qa-kit', '--json', '--pack-destination', project], { cwd: repositoryRoot });
    const [first] = JSON.parse(stdout.slice(stdout.indexOf('['))) as (typeof packed)[];
    if (!first) throw new Error(`npm pack printed no package: ${stdout}`);
    packed = first;
    const modules = join(project, 'node_modules');
    mkdirSync(join(modules, '@payframe', 'qa-kit'), { recursive: true });
    await run('tar', ['xzf', join(project, packed.filename), '-C', join(modules, '@payframe', 'qa-kit'), '--strip-components=1']);
    // The consumer's own Playwright: this repository's, linked in.
    symlinkSync(join(repositoryRoot, 'node_modules', '@playwright'), join(modules, '@playwright'));
  }, 120_000);
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('holds its JavaScript and types, and declares no dependency but its Playwright peer', async () => {
    expect(packed.files.map((file) => file.path)).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'package.json']));
    const manifest = JSON.parse((await run('tar', ['xzOf', join(project, packed.filename), 'package/package.json'])).stdout) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toEqual({ '@playwright/test': expect.any(String) });
  });

  it('imports into plain Node there, with the test cards and the 3-D Secure code', async () => {
    const script = `
      import { TEST_CARDS, TEST_ONE_TIME_CODE, fillCard, completeThreeDS, chromiumLaunchOptions } from '@payframe/qa-kit';
      process.stdout.write(JSON.stringify({ visa: TEST_CARDS.visa.number, code: TEST_ONE_TIME_CODE, helpers: [fillCard, completeThreeDS, chromiumLaunchOptions].map((f) => typeof f) }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ visa: '4242424242424242', code: expect.stringMatching(/^\d{6}$/), helpers: ['function', 'function', 'function'] });
  });
});
