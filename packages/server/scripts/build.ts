// Builds dist/: the CLI as one JavaScript file, so that `payframe` runs plain JavaScript from
// node_modules with nothing to compile or bundle at start, and the process helpers
// (`@payframe/server/process`) with their types. Loading the CLI as one file instead of a thousand
// modules keeps a server's start short, and the tests start servers by the hundred.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode, encode, type SourceMapMappings } from '@jridgewell/sourcemap-codec';
import { build } from 'esbuild';
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
  outfile: join(dist, 'cli.js'),
  bundle: true,
  write: false,
  metafile: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'external',
  legalComments: 'none',
  logLevel: 'error',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  external: EXTERNAL,
  // Bundled CommonJS dependencies still require Node's built-ins (and the external addons).
  banner: { js: "import { createRequire as __payframeRequire } from 'node:module'; const require = __payframeRequire(import.meta.url);" },
});
const output = (suffix: string) => {
  const file = result.outputFiles.find((candidate) => candidate.path.endsWith(suffix));
  if (!file) throw new Error(`esbuild wrote no ${suffix}`);
  return file;
};
writeFileSync(join(dist, 'cli.js'), output('.js').text);
writeFileSync(join(dist, 'cli.js.map'), JSON.stringify(ownSourcesOnly(JSON.parse(output('.js.map').text) as SourceMap)));
// The bundle carries third-party code: their licences travel with it.
writeFileSync(join(dist, 'THIRD_PARTY_LICENSES.md'), bundledLicenses(serverRoot, Object.keys(result.metafile.inputs)));

execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: serverRoot, stdio: 'inherit' });

/**
 * The source map with our own sources only: stack traces name our TypeScript lines, while the
 * dependencies' mappings (ten times the size) would make every start parse far more.
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
