// `npm run build`: builds every workspace package that has a build, dependencies first, skipping
// one whose inputs (its own files, the lockfile, and the packages it builds from) are the same as
// at its last build. `npm ci` builds once through `prepare`; `npm test` then builds only what
// changed since. `--force` builds everything.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

const root = fileURLToPath(new URL('..', import.meta.url));
const stamps = join(root, 'node_modules', '.cache', 'payframe-build');

type Manifest = { name: string; scripts?: Record<string, string>; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
type Workspace = { name: string; dir: string; builds: boolean; needs: string[] };

// What a build never reads: its own output, installed modules, and what only tests and benchmarks use.
const NOT_INPUTS = new Set(['dist', 'lib', 'node_modules', '.build', 'test', 'bench']);
const isTestFile = (name: string) => /\.test\.tsx?$/.test(name);

function workspaces(): Workspace[] {
  const all = readdirSync(join(root, 'packages')).map((dirName) => {
    const dir = join(root, 'packages', dirName);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    const needs = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).filter((name) => name.startsWith('@payframe/'));
    return { name: manifest.name, dir, builds: manifest.scripts?.build !== undefined, needs };
  });
  // A dependency that leads back to the package is a test-only one on both sides (the SDK's tests
  // run the server, whose scripts use the SDK): neither build reads the other, so neither waits for
  // the other or is built again when the other changes.
  const byName = new Map(all.map((workspace) => [workspace.name, workspace]));
  const leadsTo = (from: string, to: string, seen: Set<string>): boolean => {
    if (from === to) return true;
    if (seen.has(from)) return false;
    seen.add(from);
    return (byName.get(from)?.needs ?? []).some((need) => leadsTo(need, to, seen));
  };
  return all.map((workspace) => ({ ...workspace, needs: workspace.needs.filter((need) => !leadsTo(need, workspace.name, new Set())) }));
}

/** Dependencies before the packages that build from them. */
function inBuildOrder(all: Workspace[]): Workspace[] {
  const byName = new Map(all.map((workspace) => [workspace.name, workspace]));
  const ordered: Workspace[] = [];
  const visiting = new Set<string>();
  const visit = (workspace: Workspace) => {
    if (ordered.includes(workspace)) return;
    if (visiting.has(workspace.name)) throw new Error(`packages build from each other: ${workspace.name}`);
    visiting.add(workspace.name);
    for (const need of workspace.needs) {
      const dependency = byName.get(need);
      if (dependency) visit(dependency);
    }
    ordered.push(workspace);
  };
  for (const workspace of all) visit(workspace);
  return ordered;
}

function hashFiles(hash: ReturnType<typeof createHash>, dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (NOT_INPUTS.has(entry.name) || isTestFile(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) hashFiles(hash, path);
    else if (entry.isFile()) hash.update(`${relative(root, path)}\0`).update(readFileSync(path));
  }
}

type Build = { workspace: Workspace; fingerprint: string; stamp: string; after: string[] };

export async function buildPackages(options: { force: boolean }): Promise<string[]> {
  const lockfile = readFileSync(join(root, 'package-lock.json'));
  const fingerprints = new Map<string, string>();
  const builds: Build[] = [];
  mkdirSync(stamps, { recursive: true });
  for (const workspace of inBuildOrder(workspaces())) {
    const hash = createHash('sha256').update(lockfile);
    for (const need of workspace.needs) hash.update(fingerprints.get(need) ?? '');
    hashFiles(hash, workspace.dir);
    const fingerprint = hash.digest('hex');
    fingerprints.set(workspace.name, fingerprint);
    if (!workspace.builds) continue;
    const stamp = join(stamps, `${workspace.name.replace('/', '+')}.sha256`);
    if (!options.force && existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint) continue;
    // A failed build must not leave the old stamp vouching for a half-written dist.
    rmSync(stamp, { force: true });
    const after = workspace.needs.filter((need) => builds.some((build) => build.workspace.name === need));
    builds.push({ workspace, fingerprint, stamp, after });
  }
  await runBuilds(builds, availableParallelism());
  return builds.map((build) => build.workspace.name);
}

/**
 * Runs each build once those it builds from have finished, `slots` at a time: the packages that
 * only need the contract build side by side, those another build waits for first (the server's
 * inputs before the SDK and the QA kit, which nothing waits for). Each build's output is printed
 * whole when it ends.
 */
async function runBuilds(builds: Build[], slots: number): Promise<void> {
  const done = new Set<string>();
  const running = new Map<string, Promise<string>>();
  const awaited = (build: Build) => builds.some((other) => other.after.includes(build.workspace.name));
  const waiting = [...builds.filter(awaited), ...builds.filter((build) => !awaited(build))];
  while (waiting.length > 0 || running.size > 0) {
    for (const build of waiting.filter((candidate) => candidate.after.every((name) => done.has(name)))) {
      if (running.size >= slots) break;
      waiting.splice(waiting.indexOf(build), 1);
      running.set(
        build.workspace.name,
        buildOne(build).then(() => build.workspace.name),
      );
    }
    if (running.size === 0) throw new Error(`builds wait on each other: ${waiting.map((build) => build.workspace.name).join(', ')}`);
    const finished = await Promise.race(running.values());
    running.delete(finished);
    done.add(finished);
  }
}

async function buildOne(build: Build): Promise<void> {
  try {
    const { stdout, stderr } = await execFileAsync('npm', ['run', 'build', '-w', build.workspace.name], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    process.stdout.write(stdout);
    process.stderr.write(stderr);
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    process.stdout.write(failed.stdout ?? '');
    process.stderr.write(failed.stderr ?? '');
    throw new Error(`${build.workspace.name} did not build`);
  }
  writeFileSync(build.stamp, build.fingerprint);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const built = await buildPackages({ force: process.argv.includes('--force') });
  console.log(built.length > 0 ? `built: ${built.join(', ')}` : 'every package is up to date with its sources');
}
