import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// A real `payframe serve` process and the real CLI, for the API tests and the browser tests alike.
// Nothing here depends on a test runner.
export const BIN = fileURLToPath(new URL('../bin/payframe.js', import.meta.url));
export const runCli = (args: string[]) => promisify(execFile)(process.execPath, [BIN, ...args]);

export type TestServer = {
  url: string;
  dataDir: string;
  /** Everything the process printed so far: its pino log lines and anything else. */
  output(): string;
  /** Resolves once the output contains `text`: output travels by pipe and may trail the HTTP response. */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves, with how the process ended, once it has exited and its output is fully read. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
};

/** The exit code, or the signal that ended the process (null when it left on its own). */
export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export function tempDataDir(prefix = 'payframe-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Starts `payframe serve` as its own process on a free port and resolves once it takes requests. */
export async function spawnServer(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<TestServer> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
  const url = await readyUrl(child, chunks);
  return {
    url,
    dataDir,
    output: () => chunks.join(''),
    waitForOutput: (text, timeoutMs = 5_000) => waitForOutput(child, chunks, text, timeoutMs),
    stop: (signal = 'SIGTERM') => stopProcess(child, signal),
  };
}

/** The process logs `payframe ready` with its URL once it listens; waiting for that line is the readiness check. */
function readyUrl(child: ChildProcess, chunks: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = () => {
      for (const line of chunks.join('').split('\n')) {
        if (!line.includes('"payframe ready"')) continue;
        child.stdout?.off('data', onData);
        resolve((JSON.parse(line) as { url: string }).url);
        return;
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it was ready:\n${chunks.join('')}`)));
  });
}

function waitForOutput(child: ChildProcess, chunks: string[], text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!chunks.join('').includes(text)) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      resolve();
    };
    const timer = setTimeout(() => {
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      reject(new Error(`server output did not contain ${JSON.stringify(text)} within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    check();
  });
}

function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<Exit> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => {
    // 'close', not 'exit': it fires only after stdout and stderr are drained.
    child.once('close', (code, closedBy) => resolve({ code, signal: closedBy }));
    child.kill(signal);
  });
}
