/**
 * Starting and stopping a real `payframe serve` process (or another Node program, such as the demo
 * shop's launcher), and running the CLI, from another Node program: the API tests, the browser
 * tests, the benchmark and the demo shop's launcher.
 * Exported as `@payframe/server/process`; nothing here depends on a test runner.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The `payframe` executable of this package (its bin): the CLI from the built bundle. */
export const PAYFRAME_BIN = fileURLToPath(new URL('../../bin/payframe.js', import.meta.url));

/** The exit code, or the signal that ended the process (null when it left on its own). */
export type Exit = { code: number | null; signal: NodeJS.Signals | null };

/** A Node program started by spawnNode, once ready: `ready` is what its readiness check found. */
export type RunningProgram<T> = {
  ready: T;
  pid: number;
  /** Everything the process printed so far (up to `maxOutputChars`): its log lines and anything else. */
  output(): string;
  /** Resolves once the output contains `text`: output travels by pipe and may trail an HTTP response. */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves once the process has exited and its output is fully read. */
  exited: Promise<Exit>;
  /** Sends `signal` (SIGTERM by default) and resolves with how the process ended; SIGKILL after `killAfterMs` if given. */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<Exit>;
};

export type ProgramOptions<T> = {
  /** Answers what the program is ready with (a URL…) once its output shows it. */
  ready: (output: string) => T | null;
  /** Also asked every 20 ms until it answers, for readiness the output does not show. */
  poll?: () => Promise<T | null>;
  /** The process's whole environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Node's own flags, before the script (`--import tsx`, `--cpu-prof`…). */
  nodeArgs?: string[];
  readyTimeoutMs?: number;
  /** Copies the process's output to this process's stdout and stderr as it comes. */
  echo?: boolean;
  /** Keeps only the head of the output, bounded however chatty the log (default: everything). */
  maxOutputChars?: number;
  /** Aborting it stops the process (SIGTERM), even before it is ready. */
  signal?: AbortSignal;
};

export type ServerProcess = Omit<RunningProgram<string>, 'ready'> & { url: string };

export type ServeOptions = Omit<ProgramOptions<string>, 'ready' | 'poll'> & {
  /** Flags after `payframe serve`; `--port 0` is added unless they name a port or `configuredPort` is set. */
  args?: string[];
  /** Serve on the port its flags, PORT or its default (4000) name, as `npm start` does, instead of a free one. */
  configuredPort?: boolean;
  /** Answers the server's URL once the output shows it is ready (default: the `payframe ready` log line). */
  ready?: (output: string) => string | null;
  /**
   * Also polls `GET <healthUrl>/healthz`, the documented readiness probe: for a server whose log
   * level hides the ready line. The URL must be known beforehand (pass a port from freePort).
   */
  healthUrl?: string;
  /** Another build's `bin/payframe.js` to run instead of this one (the bench's `--against`). */
  bin?: string;
};

/** Generous: a shared, loaded machine can take long to boot a server; a test runner's own timeout usually comes first. */
const READY_TIMEOUT_MS = 60_000;

/** The URL of the `payframe ready` log line (pino JSON), once printed. */
export function readyLogUrl(output: string): string | null {
  const line = output.split('\n').find((text) => text.includes('"payframe ready"'));
  return line ? (JSON.parse(line) as { url: string }).url : null;
}

/** The URL of `serve --demo`'s banner, once it is printed whole (the demo keys are on disk by then). */
export function demoBannerUrl(output: string): string | null {
  const url = /Payframe is running at (\S+)/.exec(output)?.[1];
  return url && output.includes('Test publishable key:') ? url : null;
}

export function tempDataDir(prefix = 'payframe-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Starts `payframe serve` as its own process and resolves once it takes requests. */
export async function spawnServe(options: ServeOptions = {}): Promise<ServerProcess> {
  const { args = [], ready = readyLogUrl, healthUrl, configuredPort = false, bin = PAYFRAME_BIN, ...rest } = options;
  const portArgs = configuredPort || args.some((arg) => arg === '--port' || arg.startsWith('--port=')) ? [] : ['--port', '0'];
  const poll = healthUrl ? async () => ((await healthy(healthUrl)) ? healthUrl : null) : undefined;
  const { ready: url, ...server } = await spawnNode(bin, ['serve', ...portArgs, ...args], { ...rest, ready, ...(poll ? { poll } : {}) });
  return { url, ...server };
}

/** Runs `node [nodeArgs] script [args]` and resolves once it is ready; rejects, and kills it, if it exits or times out first. */
export async function spawnNode<T>(script: string, args: string[], options: ProgramOptions<T>): Promise<RunningProgram<T>> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], {
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.signal ? { signal: options.signal, killSignal: 'SIGTERM' as const } : {}),
  });
  // An abort surfaces as the exit below; without a listener Node would throw it.
  child.on('error', () => {});
  if (child.pid === undefined) throw new Error(`could not spawn ${script}`);
  const exited = new Promise<Exit>((resolve) => {
    // 'close', not 'exit': it fires only after stdout and stderr are drained.
    child.once('close', (code, signal) => resolve({ code, signal }));
  });

  const chunks: string[] = [];
  let kept = 0;
  const limit = options.maxOutputChars ?? Number.POSITIVE_INFINITY;
  const keep = (chunk: string) => {
    if (kept >= limit) return;
    chunks.push(chunk);
    kept += chunk.length;
  };
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  if (options.echo) {
    child.stdout.on('data', (chunk: string) => process.stdout.write(chunk));
    child.stderr.on('data', (chunk: string) => process.stderr.write(chunk));
  }
  const output = () => chunks.join('');

  const ready = await untilReady(child, output, exited, options);
  return {
    ready,
    pid: child.pid,
    output,
    waitForOutput: (text, timeoutMs = 5_000) => waitForOutput(child, output, text, timeoutMs),
    exited,
    stop: (signal = 'SIGTERM', killAfterMs) => stopProcess(child, exited, signal, killAfterMs),
  };
}

function untilReady<T>(child: ChildProcess, output: () => string, exited: Promise<Exit>, options: ProgramOptions<T>): Promise<T> {
  const timeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
  const name = child.spawnargs.slice(1).join(' ');
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (outcome: { error: Error } | { ready: T }) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      child.stdout?.off('data', onData);
      if ('error' in outcome) {
        child.kill('SIGKILL');
        reject(outcome.error);
      } else resolve(outcome.ready);
    };
    const onData = () => {
      const ready = options.ready(output());
      if (ready !== null) settle({ ready });
    };
    const deadline = setTimeout(() => settle({ error: new Error(`${name} not ready after ${timeoutMs} ms:\n${output()}`) }), timeoutMs);
    child.stdout?.on('data', onData);
    void exited.then(({ code, signal }) => settle({ error: new Error(`${name} exited (${signal ?? code}) before it was ready:\n${output()}`) }));
    const { poll } = options;
    if (poll) {
      // Connection refused is immediate while a server boots, so probe at a short, fixed interval.
      const probe = () => {
        if (settled) return;
        void poll().then((ready) => (ready !== null ? settle({ ready }) : setTimeout(probe, 20)));
      };
      probe();
    }
  });
}

function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(`${url}/healthz`, { agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.setTimeout(1_000, () => request.destroy());
    request.once('error', () => resolve(false));
  });
}

function waitForOutput(child: ChildProcess, output: () => string, text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!output().includes(text)) return;
      done();
      resolve();
    };
    const done = () => {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`server output did not contain ${JSON.stringify(text)} within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    check();
  });
}

function stopProcess(child: ChildProcess, exited: Promise<Exit>, signal: NodeJS.Signals, killAfterMs: number | undefined): Promise<Exit> {
  if (child.exitCode === null && child.signalCode === null) {
    const kill = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    void exited.then(() => clearTimeout(kill));
    child.kill(signal);
  }
  return exited;
}

/**
 * Below Linux's ephemeral range (32768-60999): the kernel hands those to every `listen(0)` and
 * outgoing socket, so one probed there can be taken by a test server next door before ours binds it.
 */
const CHOSEN_PORTS = { low: 20_000, high: 32_767 };

function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

/** A port free right now on `host`, for a server whose URL must be known before it is ready. */
export async function freePort(host: string): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = CHOSEN_PORTS.low + Math.floor(Math.random() * (CHOSEN_PORTS.high - CHOSEN_PORTS.low + 1));
    if (await portIsFree(host, port)) return port;
  }
  throw new Error(`no free port on ${host} between ${CHOSEN_PORTS.low} and ${CHOSEN_PORTS.high}`);
}

/** Runs the real CLI (or `bin`, another build's, as spawnServe does), as an operator would; rejects (with stdout, stderr and code) when it fails. */
export function runCli(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; timeoutMs?: number; bin?: string } = {},
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [options.bin ?? PAYFRAME_BIN, ...args], {
    env: options.env ?? process.env,
    ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
  });
}
