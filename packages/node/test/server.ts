import { TEST_CARDS as CARDS } from '@payframe/contract/test-cards';
import { PAYFRAME_BIN, runCli, spawnNode, spawnServe, tempDataDir } from '@payframe/server/process';

export type RunningServer = { url: string; dataDir: string; stop(): Promise<void> };

/**
 * Runs `payframe <args>` as a long-lived process (`payframe listen`): `waitForOutput` resolves with
 * the first match of a pattern in what it printed so far.
 */
export function spawnCli(args: string[]): {
  output(): string;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
} {
  const started = spawnNode(PAYFRAME_BIN, args, { ready: () => true });
  let printed = () => '';
  void started.then((program) => (printed = program.output));
  return {
    output: () => printed(),
    async waitForOutput(pattern, timeoutMs = 60_000) {
      const program = await started;
      const deadline = Date.now() + timeoutMs;
      // Checked every 20 ms, as the process helper polls readiness, until the pattern shows or time is up.
      for (;;) {
        const match = pattern.exec(program.output());
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${program.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      await (await started).stop();
    },
  };
}

/** A fresh data directory and any free port unless given: a restart on both comes back at the same URL. */
export async function startServer(env: Record<string, string> = {}, options: { dataDir?: string; port?: number } = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? tempDataDir('payframe-node-test-');
  const server = await spawnServe({ args: ['--port', String(options.port ?? 0), '--data-dir', dataDir], env: { ...process.env, ...env } });
  return {
    url: server.url,
    dataDir,
    stop: async () => {
      await server.stop();
    },
  };
}

export type Keys = { account: string; secretKey: string; publishableKey: string };

export async function createKeys(dataDir: string, account: string, mode: 'test' | 'live' = 'test'): Promise<Keys> {
  const { stdout } = await runCli(['keys', 'create', '--account', account, '--mode', mode, '--json', '--data-dir', dataDir]);
  return JSON.parse(stdout) as Keys;
}

/** The contract's test cards' numbers under the names the SDK tests use. */
export const TEST_CARDS = {
  visa: CARDS.visa.number,
  visa3ds: CARDS.visa3DS.number,
  declined: CARDS.declined.number,
  insufficientFunds: CARDS.insufficientFunds.number,
} as const;

export { chargeParams, tokenParams } from '@payframe/contract/testing';
