// `npm run pack`: one tarball per publishable package in .packages/, from the dist/ that
// `npm run build` made (the script builds first). The packed-install test calls packPackages()
// on the build the test command already made.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const PACKAGES_DIR = join(root, '.packages');

/** Every workspace package that is not private: what `npm install ./.packages/*.tgz` installs. */
export function publishablePackages(): string[] {
  return readdirSync(join(root, 'packages'))
    .map((dir) => JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as { name: string; private?: boolean })
    .filter((manifest) => manifest.private !== true)
    .map((manifest) => manifest.name);
}

/** Packs each publishable package into `destination` (emptied first); answers the tarballs' paths. */
export function packPackages(destination: string = PACKAGES_DIR): string[] {
  rmSync(destination, { recursive: true, force: true });
  mkdirSync(destination, { recursive: true });
  const workspaces = publishablePackages().flatMap((name) => ['-w', name]);
  // The build is done: no lifecycle script may rebuild in the middle of packing.
  const printed = execFileSync('npm', ['pack', ...workspaces, '--ignore-scripts', '--json', '--pack-destination', destination], {
    cwd: root,
    encoding: 'utf8',
  });
  const packed = JSON.parse(printed.slice(printed.indexOf('['))) as Array<{ filename: string }>;
  return packed.map((tarball) => join(destination, tarball.filename));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const tarball of packPackages()) console.log(tarball);
}
