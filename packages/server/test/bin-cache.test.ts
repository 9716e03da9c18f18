import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAYFRAME_BIN } from '../src/process/server-process.ts';
import { cli } from './harness.ts';

const cacheDir = join(dirname(dirname(PAYFRAME_BIN)), '.build');
const manifestFile = join(cacheDir, 'manifest.json');

describe('the bin’s bundle cache', () => {
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
  });
});
