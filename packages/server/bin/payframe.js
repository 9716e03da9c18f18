#!/usr/bin/env node
// Runs straight from the TypeScript sources, so the CLI works right after `npm ci` with no build
// step: esbuild bundles our own code (node_modules stay external) into a cache file named by its
// content hash, then Node runs plain JavaScript. Unlike a loader hook, this leaves no compiler
// thread alive in the server (about 40 MB of RSS).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, stop } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const result = await build({
  entryPoints: [join(root, 'src/cli/index.ts')],
  bundle: true,
  write: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'inline',
  logLevel: 'error',
  plugins: [
    {
      name: 'dependencies-stay-external',
      setup(builder) {
        // Workspace packages are TypeScript too and are bundled; everything else loads from node_modules.
        builder.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@payframe/') ? undefined : { external: true }));
      },
    },
  ],
});
// The bundler is a child process; the server has no further use for it.
stop();
const code = result.outputFiles[0].contents;
const cacheDir = join(root, '.build');
const bundle = join(cacheDir, `payframe-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
if (!existsSync(bundle)) {
  mkdirSync(cacheDir, { recursive: true });
  // Write then rename: processes starting together never read a half-written file.
  const partial = `${bundle}.${process.pid}.tmp`;
  writeFileSync(partial, code);
  renameSync(partial, bundle);
}
process.setSourceMapsEnabled(true);
await import(pathToFileURL(bundle).href);
