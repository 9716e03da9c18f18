import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PAYFRAME_BIN } from '../src/process/server-process.ts';
import { cli } from './harness.ts';

const cacheDir = join(dirname(dirname(PAYFRAME_BIN)), '.build');
const manifestFile = join(cacheDir, 'manifest.json');

const planted = ['payframe-stale-test.mjs', 'payframe-unused-for-two-hours.mjs', 'payframe-used-a-minute-ago.mjs'];

describe('the bin’s bundle cache', () => {
  afterAll(() => {
    for (const name of planted) rmSync(join(cacheDir, name), { force: true });
  });

  it('bundles again when a source differs from the one the cached bundle was built from', async () => {
    mkdirSync(cacheDir, { recursive: true });
    // A bundle that must never run, recorded as built from a version of the entry point that no longer exists.
    writeFileSync(join(cacheDir, 'payframe-stale-test.mjs'), 'console.log("STALE BUNDLE RAN");\n');
    const partial = `${manifestFile}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify({ bundle: 'payframe-stale-test.mjs', inputs: { 'src/cli/index.ts': '1:1' } }));
    renameSync(partial, manifestFile);

    const { stdout, code } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stdout).not.toContain('STALE BUNDLE RAN');
    expect(stdout).toContain('payframe serve');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { bundle: string; inputs: Record<string, string> };
    expect(manifest.bundle).not.toBe('payframe-stale-test.mjs');
    expect(manifest.inputs['src/cli/index.ts']).not.toBe('1:1');
    // The bundle's options live in the bin itself: changing them bundles again too.
    expect(manifest.inputs['bin/payframe.js']).toMatch(/^\d+:[\d.]+$/);
  });

  it('deletes, when it writes a new bundle, the bundles no start has used for an hour, and keeps the others', async () => {
    mkdirSync(cacheDir, { recursive: true });
    const unused = join(cacheDir, 'payframe-unused-for-two-hours.mjs');
    const recent = join(cacheDir, 'payframe-used-a-minute-ago.mjs');
    writeFileSync(unused, 'console.log("UNUSED");\n');
    writeFileSync(recent, 'console.log("RECENT");\n');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const aMinuteAgo = new Date(Date.now() - 60 * 1000);
    utimesSync(unused, twoHoursAgo, twoHoursAgo);
    utimesSync(recent, aMinuteAgo, aMinuteAgo);
    const partial = `${manifestFile}.${process.pid}.tmp`;
    writeFileSync(partial, JSON.stringify({ bundle: 'payframe-used-a-minute-ago.mjs', inputs: { 'src/cli/index.ts': '1:1' } }));
    renameSync(partial, manifestFile);

    const { code } = await cli(['--help']);
    expect(code).toBe(0);
    const { bundle } = JSON.parse(readFileSync(manifestFile, 'utf8')) as { bundle: string };
    expect(existsSync(join(cacheDir, bundle))).toBe(true);
    expect(existsSync(unused)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  });
});
