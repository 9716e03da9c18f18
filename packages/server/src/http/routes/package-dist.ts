import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Where `npm ci` (the root `prepare` script) builds a workspace package's browser files. */
export function packageDistDir(packageName: '@payframe/widget' | '@payframe/dashboard'): string {
  return join(dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`)), 'dist');
}
