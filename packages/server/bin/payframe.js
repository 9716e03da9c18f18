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
import { setFlagsFromString } from 'node:v8';
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
// V8 doubles the young generation as a server's allocation rate rises (its growth factor is 2), and
// the resident memory that leaves behind is most of what a busy server grows by; at 1 the process
// serves as fast in less memory (docs/performance.md, "Memory"). V8 reads the factor whenever it
// considers growing that space, so setting it now takes effect. A code cache carries the flags in
// force when it was made and is refused by a process whose flags differ when it reads it: so the
// flag is set only after the bundle is compiled, and back to V8's default before a cache is made.
// An operator's own semi-space flags, through NODE_OPTIONS or the command line, are left to rule.
const operatorFlags = `${process.env.NODE_OPTIONS ?? ''} ${process.execArgv.join(' ')}`;
const smallYoungGeneration = !operatorFlags.includes('semi-space');
if (smallYoungGeneration) setFlagsFromString('--semi-space-growth-factor=1');
// Node flags such as --cpu-prof may change what V8 accepts: only a plain process replaces the cache.
if (!cached && process.execArgv.length === 0) {
  process.once('exit', () => {
    const written = `${cacheFile}.${process.pid}`;
    if (smallYoungGeneration) setFlagsFromString('--semi-space-growth-factor=2');
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
