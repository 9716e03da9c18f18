import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const vendored = join(root, 'vendor/prebuilds');
const installed = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
const names = readdirSync(vendored).filter((file) => file.endsWith('.tar.gz'));
const name = names[0] ?? '';

it('vendors the better-sqlite3 addon of the version the lockfile installs, and nothing else', () => {
  const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
  expect(names).toEqual([expect.stringMatching(new RegExp(`^better-sqlite3-v${version.replaceAll('.', '\\.')}-node-v\\d+-\\w+-\\w+\\.tar\\.gz$`))]);
  const entries = execFileSync('tar', ['-tzf', join(vendored, name)], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  expect(entries.filter((entry) => !entry.endsWith('/'))).toEqual(['build/Release/better_sqlite3.node']);
});

// Another Node or platform compiles its own addon at install: there is nothing to compare then.
const forThisNode = name.endsWith(`-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);

it.skipIf(!forThisNode)('is, for this Node and platform, the addon installed here', () => {
  const packed = execFileSync('tar', ['-xzOf', join(vendored, name), 'build/Release/better_sqlite3.node'], { maxBuffer: 64 * 1024 * 1024 });
  expect(packed.equals(readFileSync(join(installed, 'build/Release/better_sqlite3.node')))).toBe(true);
});
