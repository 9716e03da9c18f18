#!/usr/bin/env node
// Runs straight from the TypeScript sources, so the CLI works right after `npm ci` with no build
// step: esbuild bundles our code and its dependencies into one cache file named by its content
// hash, then Node runs plain JavaScript. Unlike a loader hook, this leaves no compiler thread alive
// in the server (about 40 MB of RSS). Loading a thousand separate modules from node_modules took
// more than half of a start's CPU (1.5 s of it, and tests start servers by the hundred).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cacheDir = join(root, '.build');
const manifestFile = join(cacheDir, 'manifest.json');
/** A bundle no start has used for this long is an earlier version of the sources. */
const UNUSED_MS = 60 * 60 * 1000;

// Bundling holds the output, its source map and esbuild's metafile in memory, tens of MB that would
// stay in the server's RSS for its whole life: a process of its own does it and exits.
if (process.env.PAYFRAME_BUNDLE_ONLY === '1') {
  process.stdout.write(await bundleSources());
} else {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL((await unchangedBundle()) ?? bundledApart()).href);
}

function bundledApart() {
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], {
    env: { ...process.env, PAYFRAME_BUNDLE_ONLY: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (child.status !== 0 || !child.stdout) throw new Error(`bundling the CLI's sources failed (${child.error?.message ?? `exit code ${child.status}`})`);
  return child.stdout;
}

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
  // Marks it in use, so that a rebuild in this checkout does not prune it (pruneUnused).
  const now = new Date();
  utimesSync(bundle, now, now);
  return bundle;
}

/** Each source change leaves a 6 MB bundle behind: old ones go when a new one is written. */
function pruneUnused(kept) {
  for (const name of readdirSync(cacheDir)) {
    if (name === kept || !/^payframe-.+\.mjs$/.test(name)) continue;
    const stats = statSync(join(cacheDir, name), { throwIfNoEntry: false });
    if (stats && Date.now() - stats.mtimeMs > UNUSED_MS) rmSync(join(cacheDir, name), { force: true });
  }
}

async function bundleSources() {
  const { build, stop } = await import('esbuild');
  const result = await build({
    entryPoints: [join(root, 'src/cli/index.ts')],
    absWorkingDir: root,
    outfile: join(cacheDir, 'payframe.mjs'),
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'external',
    logLevel: 'error',
    // Native addons load their .node files from their own directory; pg-native is pg's optional binding.
    // pg is loaded only for a database URL (storage/db.ts): outside, an embedded start does not even
    // parse it, and `npm run bench -- --count-queries` observes the very module the server uses.
    external: ['better-sqlite3', 'pg-native', 'pg'],
    // Bundled CommonJS dependencies still require Node's built-ins (and the external addons).
    banner: { js: "import { createRequire as __payframeRequire } from 'node:module'; const require = __payframeRequire(import.meta.url);" },
  });
  // The bundler is a child process; the server has no further use for it.
  stop();
  const output = (suffix) => result.outputFiles.find((file) => file.path.endsWith(suffix));
  const map = Buffer.from(JSON.stringify(await ownSourcesOnly(JSON.parse(output('.mjs.map').text)))).toString('base64');
  const code = `${output('.mjs').text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '')}\n//# sourceMappingURL=data:application/json;base64,${map}\n`;
  const name = `payframe-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
  const bundle = join(cacheDir, name);
  mkdirSync(cacheDir, { recursive: true });
  if (!existsSync(bundle)) writeAtomically(bundle, code);
  // This file too: it holds the bundle's options.
  const sources = [...Object.keys(result.metafile.inputs), 'bin/payframe.js'];
  const inputs = Object.fromEntries(sources.map((path) => [path, fingerprint(path)]));
  writeAtomically(manifestFile, JSON.stringify({ bundle: name, inputs }));
  pruneUnused(name);
  return bundle;
}

/**
 * The source map with our own sources only: stack traces name our TypeScript lines, while the
 * dependencies' mappings (ten times the size) would cost every start about 0.4 s and 120 MB to parse.
 */
async function ownSourcesOnly(map) {
  const { decode, encode } = await import('@jridgewell/sourcemap-codec');
  const kept = map.sources.map((source) => !source.includes('node_modules/'));
  const renumbered = [];
  let next = 0;
  for (const keep of kept) renumbered.push(keep ? next++ : -1);
  const lines = decode(map.mappings).map((segments) =>
    segments.filter((segment) => segment.length > 1 && kept[segment[1]]).map(([column, source, ...rest]) => [column, renumbered[source], ...rest]),
  );
  return {
    ...map,
    sources: map.sources.filter((_, index) => kept[index]),
    sourcesContent: map.sourcesContent?.filter((_, index) => kept[index]),
    mappings: encode(lines),
  };
}
