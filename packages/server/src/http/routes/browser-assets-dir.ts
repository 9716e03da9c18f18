import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The directory of a workspace package's built browser files (its dist/, built by `npm ci` through the root `prepare` script), which the asset routes serve. */
export function browserAssetsDir(packageName: '@payframe/widget' | '@payframe/dashboard'): string {
  return join(dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`)), 'dist');
}
