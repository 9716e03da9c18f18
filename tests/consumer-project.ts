import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);
export const repositoryRoot = new URL('..', import.meta.url).pathname;

/** The version this repository installed of a package: the consumer gets the same one, from npm's cache when it is there. */
export function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(repositoryRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * better-sqlite3's install script asks prebuild-install for a binary of its release, from GitHub,
 * and compiles SQLite (minutes) when it cannot have one; this host cannot reach GitHub. The addon
 * this repository's install compiled is the same version for the same Node: it is offered as the
 * local prebuild that prebuild-install looks for first (`npm_config_better_sqlite3_local_prebuilds`).
 */
export async function localSqlitePrebuild(dir: string): Promise<NodeJS.ProcessEnv> {
  const name = `better-sqlite3-v${installedVersion('better-sqlite3')}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const staging = join(dir, 'staging');
  mkdirSync(join(staging, 'build', 'Release'), { recursive: true });
  cpSync(join(repositoryRoot, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), join(staging, 'build/Release/better_sqlite3.node'));
  await run('tar', ['czf', join(dir, name), '-C', staging, 'build']);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

export type Started = { process: ChildProcess; url: string; readyAfterMs: number; output: () => string; stop: () => Promise<void> };

/** Starts a command that serves on `port`, and resolves once GET /healthz answers 200 (polled; the process's death fails it). */
export async function startServing(command: string, args: string[], options: { cwd: string; port: number; env?: NodeJS.ProcessEnv }): Promise<Started> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  const stop = async () => {
    // npx runs the bin as its own child: the whole group goes, and is waited for. npx may end before
    // the bin, which writes its code cache into the installed package as it exits.
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
    while (child.pid !== undefined && liveGroupMembers(child.pid) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited before it served:\n${output}`);
    const answer = await fetch(`${url}/healthz`).catch(() => null);
    if (answer?.status === 200) return { process: child, url, readyAfterMs: performance.now() - started, output: () => output, stop };
    if (performance.now() - started > 60_000) {
      await stop();
      throw new Error(`no /healthz from ${command} ${args.join(' ')} within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The fields of /proc/<pid>/stat after the command's name, the state first. The name is in
 * parentheses and may hold spaces and parentheses itself: the fields begin after the last `) `.
 */
function statFields(pid: number | string): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
}

/** How many processes of a process group are still running (zombies, which no longer run, left out), from Linux's /proc. */
function liveGroupMembers(group: number): number {
  let live = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fields: string[];
    try {
      fields = statFields(entry);
    } catch {
      continue; // ended since the listing
    }
    // The state, the parent, then the process group.
    const [state, , processGroup] = fields;
    if (Number(processGroup) === group && state !== 'Z') live += 1;
  }
  return live;
}

/** The CPU time (user and system) a running process has used, from Linux's /proc. */
export function processCpuMs(pid: number): number {
  // utime and stime are the 12th and 13th fields after the name, in clock ticks.
  const fields = statFields(pid);
  const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1000;
}
