// Builds dist/: the CLI as one CommonJS file with V8's code cache for it, so that `payframe` runs
// plain JavaScript from node_modules with nothing to bundle, parse or compile again at start, and
// the process helpers (`@payframe/server/process`) with their types. Loading the CLI as one file
// instead of a thousand modules, from a code cache, keeps a server's start short, and the tests
// start servers by the hundred. CommonJS because Node 20 takes a code cache only through vm.Script
// (bin/payframe.js).
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode, encode, type SourceMapMappings } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';
import { spawnServe, tempDataDir } from '../src/process/server-process.ts';
import { bundledLicenses } from './bundled-licenses.ts';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const dist = join(serverRoot, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Installed beside the bundle, not in it: native addons load their .node files from their own directory, pg-native is pg's optional binding. */
const EXTERNAL = ['better-sqlite3', 'pg', 'pg-native'];

type SourceMap = { sources: string[]; sourcesContent?: string[]; mappings: string };

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const result = await build({
  entryPoints: [join(serverRoot, 'src/cli/index.ts')],
  absWorkingDir: serverRoot,
  outfile: join(dist, 'cli.cjs'),
  bundle: true,
  write: false,
  metafile: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Every character beyond ASCII in code is escaped: bin/payframe.js reads the bundle as Latin-1.
  charset: 'ascii',
  sourcemap: 'external',
  legalComments: 'none',
  logLevel: 'error',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  external: EXTERNAL,
  // Our sources find installed files from their own URL: in the bundle, the bundle's.
  define: { 'import.meta.url': '__payframeUrl' },
  // The build's id names the code cache made for exactly this text (bin/payframe.js): V8 checks a
  // cache against the source's length only.
  banner: { js: `// payframe build ${randomUUID()}\nconst __payframeUrl = require('node:url').pathToFileURL(__filename).href;` },
});
const output = (suffix: string) => {
  const file = result.outputFiles.find((candidate) => candidate.path.endsWith(suffix));
  if (!file) throw new Error(`esbuild wrote no ${suffix}`);
  return file;
};
writeFileSync(join(dist, 'cli.cjs'), output('.cjs').text);
writeFileSync(join(dist, 'cli.cjs.map'), JSON.stringify(ownSourcesOnly(JSON.parse(output('.cjs.map').text) as SourceMap)));
// The bundle carries third-party code: their licences travel with it.
writeFileSync(join(dist, 'THIRD_PARTY_LICENSES.md'), bundledLicenses(serverRoot, Object.keys(result.metafile.inputs)));

execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: serverRoot, stdio: 'inherit' });
await writeCodeCache();

/**
 * One server started to ready and stopped: bin/payframe.js, finding no cache, writes V8's code
 * cache of the bundle as the process ends, with every function that start and stop compiled.
 */
async function writeCodeCache(): Promise<void> {
  const dataDir = tempDataDir('payframe-build-');
  try {
    // Nothing of the builder's environment: a DATABASE_URL or PAYFRAME_* there must not reach it.
    const server = await spawnServe({ args: ['--data-dir', dataDir, '--host', '127.0.0.1'], env: { PATH: process.env.PATH ?? '' } });
    const exit = await server.stop();
    if (exit.code !== 0 || !readdirSync(dist).some((name) => name.endsWith('.cache')))
      throw new Error(`the server that writes the code cache ended with ${JSON.stringify(exit)}, and no cache`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The source map with our own sources only, for reading a stack trace's bundle lines as TypeScript
 * ones (Node maps no vm.Script's frames itself); the dependencies' mappings are ten times the size.
 */
function ownSourcesOnly(map: SourceMap): SourceMap {
  const kept = map.sources.map((source) => !source.includes('node_modules/'));
  const renumbered: number[] = [];
  let next = 0;
  for (const keep of kept) renumbered.push(keep ? next++ : -1);
  const lines: SourceMapMappings = decode(map.mappings).map((segments) =>
    segments.flatMap((segment) => {
      if (segment.length === 1 || !kept[segment[1]]) return [];
      const moved = [...segment] as typeof segment;
      moved[1] = renumbered[segment[1]] ?? 0;
      return [moved];
    }),
  );
  return {
    ...map,
    sources: map.sources.filter((_, index) => kept[index]),
    // The sources are not in the package; the map names their lines only.
    sourcesContent: undefined,
    mappings: encode(lines),
  } as SourceMap;
}
