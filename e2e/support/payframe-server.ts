import { runCli, spawnServe, tempDataDir } from '@payframe/server/process';

export type Keys = { secretKey: string; publishableKey: string };

export type PayframeServer = {
  url: string;
  dataDir: string;
  keys: Keys;
  /** Everything the process printed: its log lines. */
  output(): string;
  stop(): Promise<void>;
};

/** A real `payframe serve` on a fresh embedded store, with a test account made by the real CLI. */
export async function startPayframe(): Promise<PayframeServer> {
  const dataDir = tempDataDir('payframe-e2e-');
  const keys = await createAccount(dataDir, 'shop');
  const server = await spawnServe({ args: ['--data-dir', dataDir] });
  return { url: server.url, dataDir, keys, output: server.output, stop: async () => void (await server.stop()) };
}

/** Test-mode keys of a new account, made by the CLI (it works while the server runs on the same store). */
export async function createAccount(dataDir: string, account: string): Promise<Keys> {
  const { stdout } = await runCli(['keys', 'create', '--account', account, '--mode', 'test', '--json', '--data-dir', dataDir]);
  return JSON.parse(stdout) as Keys;
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
