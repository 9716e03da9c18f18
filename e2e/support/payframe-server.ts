import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The same pattern as the server's API harness: a real `payframe serve` process and keys made by the
// real CLI. (That harness reads vitest's context, so the browser tests keep their own small copy.)
const BIN = fileURLToPath(new URL('../../packages/server/bin/payframe.js', import.meta.url));
const run = promisify(execFile);

export type Keys = { secretKey: string; publishableKey: string };

export type PayframeServer = {
  url: string;
  dataDir: string;
  keys: Keys;
  /** Everything the process printed: its log lines. */
  output(): string;
  stop(): Promise<void>;
};

export async function startPayframe(): Promise<PayframeServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'payframe-e2e-'));
  const keys = await createAccount(dataDir, 'shop');
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: string[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => chunks.push(chunk));
  const url = await readyUrl(child, chunks);
  return {
    url,
    dataDir,
    keys,
    output: () => chunks.join(''),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('close', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Test-mode keys of a new account, made by the CLI (it works while the server runs on the same store). */
export async function createAccount(dataDir: string, account: string): Promise<Keys> {
  const { stdout } = await run(process.execPath, [BIN, 'keys', 'create', '--account', account, '--mode', 'test', '--json', '--data-dir', dataDir]);
  return JSON.parse(stdout) as Keys;
}

/** The process logs `payframe ready` with its URL once it listens. */
function readyUrl(child: ChildProcess, chunks: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = () => {
      const line = chunks.join('').split('\n').find((candidate) => candidate.includes('"payframe ready"'));
      if (!line) return;
      child.stdout?.off('data', onData);
      resolve((JSON.parse(line) as { url: string }).url);
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`payframe exited (${code}) before it was ready:\n${chunks.join('')}`)));
  });
}

/** Moves the account's test clock forward, so that the server judges expiry later than the browser does. */
export async function advanceClock(server: PayframeServer, keys: Keys, seconds: number): Promise<void> {
  const response = await fetch(`${server.url}/v2/test_helpers/clock`, {
    method: 'POST',
    headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/json' },
    body: JSON.stringify({ advance_seconds: seconds }),
  });
  if (!response.ok) throw new Error(`clock: ${response.status} ${await response.text()}`);
}
