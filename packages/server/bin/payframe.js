#!/usr/bin/env node
// Runs straight from the TypeScript sources, so the CLI works right after `npm ci` with no build
// step: esbuild bundles our own code (node_modules stay external) into a cache file named by its
// content hash, then Node runs plain JavaScript. Unlike a loader hook, this leaves no compiler
// thread alive in the server (about 40 MB of RSS).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cacheDir = join(root, '.build');
const manifestFile = join(cacheDir, 'manifest.json');

process.setSourceMapsEnabled(true);
await import(pathToFileURL((await unchangedBundle()) ?? (await bundleSources())).href);

/** Write then rename: processes starting together never read a half-written file. */
function writeAtomically(file, contents) {
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, contents);
  renameSync(partial, file);
}

/** Each source's size and modification time: a changed, added or removed import changes one of them. */
function fingerprint(path) {
  const stats = statSync(resolve(root, path), { throwIfNoEntry: false });
  return stats ? `${stats.size}:${stats.mtimeMs}` : 'missing';
}

/**
 * The last bundle, when none of the sources it was built from has changed since: loading esbuild
 * and bundling cost about 0.3 s of CPU per start, and tests start servers by the hundred.
 */
async function unchangedBundle() {
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const bundle = join(cacheDir, manifest.bundle);
  if (!existsSync(bundle)) return null;
  for (const [path, seen] of Object.entries(manifest.inputs)) if (fingerprint(path) !== seen) return null;
  return bundle;
}

async function bundleSources() {
  const { build, stop } = await import('esbuild');
  const result = await build({
    entryPoints: [join(root, 'src/cli/index.ts')],
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
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
  const name = `payframe-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const bundle = join(cacheDir, name);
  mkdirSync(cacheDir, { recursive: true });
  if (!existsSync(bundle)) writeAtomically(bundle, code);
  const inputs = Object.fromEntries(Object.keys(result.metafile.inputs).map((path) => [path, fingerprint(path)]));
  writeAtomically(manifestFile, JSON.stringify({ bundle: name, inputs }));
  return bundle;
}
