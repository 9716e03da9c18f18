#!/usr/bin/env node
// Runs the CLI that `npm run build` bundles into dist/cli.cjs: one plain CommonJS file, compiled from
// V8's code cache beside it (dist/cli.cjs.BUILD.cache), so that a start neither parses the whole bundle
// nor compiles again the functions a server's start runs. Node's own loader takes no code cache
// before Node 22, hence vm.Script. The build writes the cache; a Node whose V8 rejects it (another
// version) writes its own when the process ends, where it may.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { constants, Script } from 'node:vm';

const file = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));

/**
 * Compiles the bundle. A function, so that the text as read and the cache's bytes (5.5 and 3 MB)
 * are garbage once it returns: V8 keeps its own copy of the wrapped text for the functions it
 * compiles later, and needs the cache no more.
 */
function compile() {
  // Read as Latin-1: esbuild writes the bundle's code in ASCII (it escapes every other character in
  // literals), and what else it holds is comments. As Latin-1 the text is one byte a character in
  // V8's heap, where one UTF-8 character in a comment would make all of it two; a character decoded
  // wrongly in a comment changes nothing (no byte decodes to a line terminator in Latin-1).
  const source = readFileSync(file, 'latin1');
  // V8 checks a cache against the source's length only: each build's cache is named for that build.
  const build = /^\/\/ payframe build ([\w-]+)/.exec(source.slice(0, 100))?.[1] ?? 'unknown';
  const cacheFile = `${file}.${build}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet: this process compiles everything, and may leave one for the next.
  }
  const script = new Script(Module.wrap(source), {
    filename: file,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  return { script, cacheFile, cached: cachedData !== undefined && !script.cachedDataRejected };
}

const { script, cacheFile, cached } = compile();
// V8 grows the young generation with a server's allocation rate, up to 32 MB, and the resident
// memory that leaves behind is most of what a busy server grows by; kept from growing at all, it
// promotes young garbage to the old generation, collected more often and held longer. So the
// young generation grows as V8 sees fit up to half its maximum (`--max-semi-space-size=8`, which
// can only be given at start), then no further: V8 reads its growth factor whenever it considers
// growing the space, and a factor of 1 stops it (docs/performance.md, "Memory"). A code cache
// carries the flags in force when it was made and is refused by a process whose flags differ when
// it reads it: so the factor is V8's own (2) whenever the bundle is compiled or a cache is made.
// An operator's own semi-space flags, through NODE_OPTIONS or the command line, are left to rule.
const YOUNG_GENERATION_CAP = 16 * 1024 * 1024;
const operatorFlags = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
let growthFactor = 2;
function setGrowthFactor(factor) {
  if (factor === growthFactor) return;
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  growthFactor = factor;
}
if (!operatorFlags.includes('semi-space')) {
  setInterval(() => {
    const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    // Below the cap again (V8 shrinks the space when allocation slows), it may grow back to it.
    if (young) setGrowthFactor(young.space_size >= YOUNG_GENERATION_CAP ? 1 : 2);
  }, 200).unref();
}
// Node flags such as --cpu-prof may change what V8 accepts: only a plain process replaces the cache.
if (!cached && process.execArgv.length === 0) {
  process.once('exit', () => {
    const written = `${cacheFile}.${process.pid}`;
    setGrowthFactor(2);
    try {
      writeFileSync(written, script.createCachedData());
      renameSync(written, cacheFile);
    } catch {
      // A read-only installation keeps compiling at start, as without a cache.
    }
  });
}
const cli = { exports: {} };
script.runInThisContext()(cli.exports, createRequire(file), cli, file, dirname(file));
await cli.exports.main(process.argv.slice(2));
