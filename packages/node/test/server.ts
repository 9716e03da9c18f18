import { TEST_CARDS as CARDS } from '@payframe/contract/test-cards';
import { runCli, spawnServe, tempDataDir } from '@payframe/server/process';

export type RunningServer = { url: string; dataDir: string; stop(): Promise<void> };

/** A real `payframe serve` process on a fresh data directory, started as an operator would. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = tempDataDir('payframe-node-test-');
  const server = await spawnServe({ args: ['--data-dir', dataDir], env: { ...process.env, ...env } });
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

export function tokenParams(number: string) {
  return {
    card: { number, cvc: '123', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, name: 'Ada Lovelace' },
    shopper: { ip: '203.0.113.7', session_id: 'session-1', email: 'ada@example.com' },
  };
}

export function chargeParams(token: string) {
  return { token, amount: 500, currency: 'eur', description: 'Order #1', return_url: 'https://shop.example/return' };
}
