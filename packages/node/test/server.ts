import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// A real `payframe serve` process, started as an operator would with the CLI of the server package
// (whose test harness is not a package export).
const BIN = fileURLToPath(new URL('../../server/bin/payframe.js', import.meta.url));

export type RunningServer = { url: string; dataDir: string; stop(): Promise<void> };

/** Runs `payframe <args>` as a long-lived process (`payframe listen`), with its output so far. */
export function spawnCli(args: string[]): { output(): string; waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>; stop(): Promise<void> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const waiters = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      for (const wake of waiters) wake();
    });
  }
  return {
    output: () => output,
    waitForOutput(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) finish(() => resolve(match));
          else if (child.exitCode !== null) finish(() => reject(new Error(`payframe exited (${child.exitCode}) before printing ${pattern}:\n${output}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${output}`))), timeoutMs);
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          child.off('exit', check);
          settle();
        };
        waiters.add(check);
        child.on('exit', check);
        check();
      });
    },
    stop: () => stop(child),
  };
}

/** A fresh data directory and any free port unless given: a restart on both comes back at the same URL. */
export async function startServer(env: Record<string, string> = {}, options: { dataDir?: string; port?: number } = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'payframe-node-test-'));
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(options.port ?? 0), '--data-dir', dataDir], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await readyUrl(child);
  return { url, dataDir, stop: () => stop(child) };
}

export type Keys = { account: string; secretKey: string; publishableKey: string };

export async function createKeys(dataDir: string, account: string, mode: 'test' | 'live' = 'test'): Promise<Keys> {
  const { stdout } = await promisify(execFile)(process.execPath, [BIN, 'keys', 'create', '--account', account, '--mode', mode, '--json', '--data-dir', dataDir]);
  return JSON.parse(stdout) as Keys;
}

/** The server logs a `payframe ready` line with its URL once it takes requests. */
function readyUrl(child: ChildProcess): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.includes('"payframe ready"'));
      if (line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`payframe serve exited (${code}) before it was ready:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('close', () => resolve());
    child.kill('SIGTERM');
  });
}

export const TEST_CARDS = {
  visa: '4242424242424242',
  visa3ds: '4000000000003220',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

export function tokenParams(number: string) {
  return {
    card: { number, cvc: '123', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, name: 'Ada Lovelace' },
    shopper: { ip: '203.0.113.7', session_id: 'session-1', email: 'ada@example.com' },
  };
}

export function chargeParams(token: string) {
  return { token, amount: 500, currency: 'eur', description: 'Order #1', return_url: 'https://shop.example/return' };
}
