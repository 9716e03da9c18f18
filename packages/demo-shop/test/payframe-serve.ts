import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The `payframe` CLI of the workspace's server package, found by package name (its `bin`). */
const PAYFRAME_BIN = join(createRequire(import.meta.url).resolve('@payframe/server'), '../../bin/payframe.js');

export type DemoPayframe = { url: string; dataDir: string; secretKey: string; publishableKey: string; stop(): Promise<void> };

/** A real `payframe serve --demo` on a free port and a fresh data directory, ready once it prints its banner. */
export async function startDemoPayframe(): Promise<DemoPayframe> {
  const dataDir = mkdtempSync(join(tmpdir(), 'payframe-shop-test-'));
  const child = spawn(process.execPath, [PAYFRAME_BIN, 'serve', '--demo', '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const url = await banner(child);
  const keys = JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')) as { secretKey: string; publishableKey: string };
  return {
    url,
    dataDir,
    ...keys,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function banner(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const collect = (chunk: Buffer) => {
      output += String(chunk);
      const url = /Payframe is running at (\S+)/.exec(output)?.[1];
      if (url && output.includes('Test publishable key:')) resolve(url);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('exit', (code) => reject(new Error(`payframe serve exited (${code}) before it was ready:\n${output}`)));
  });
}
