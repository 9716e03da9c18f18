import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNode } from '@payframe/server/process';
import type { Keys } from './payframe-server.ts';

const LAUNCHER = createRequire(import.meta.url).resolve('@payframe/demo-shop/start');

export type DemoShop = {
  /** The shop, as `npm start` prints it. */
  url: string;
  /** The Payframe API it runs beside. */
  apiUrl: string;
  dataDir: string;
  /** The demo account's keys, from DATA_DIR/demo-keys.json. */
  keys: Keys;
  /** Everything the launcher and the API printed. */
  output(): string;
  /** A GET or POST to the API with the shop's secret key; resolves with the JSON body, throws on non-200. */
  api<T = Record<string, unknown>>(path: string, body?: Record<string, unknown>): Promise<T>;
  /** SIGTERM, as Ctrl-C would; resolves with the launcher's exit code. */
  stop(): Promise<number | null>;
};

export type ThreeDSDisplay = 'modal' | 'redirect';

/**
 * What `npm start` runs, on free ports and a fresh (or the given) data directory; 3-D Secure in the
 * shop's dialog (its default) or by the full redirect.
 */
export async function startDemoShop(dataDir = mkdtempSync(join(tmpdir(), 'payframe-shop-e2e-')), threeDSDisplay: ThreeDSDisplay = 'modal'): Promise<DemoShop> {
  const launcher = await spawnNode(LAUNCHER, ['--port', '0', '--shop-port', '0', '--data-dir', dataDir], {
    nodeArgs: ['--import', 'tsx'],
    env: { ...process.env, LOG_LEVEL: 'warn', SHOP_3DS_DISPLAY: threeDSDisplay },
    ready: readyUrls,
  });
  const [url, apiUrl] = launcher.ready;
  const keys = JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')) as Keys;
  return {
    url,
    apiUrl,
    dataDir,
    keys,
    output: launcher.output,
    async api<T>(path: string, body?: Record<string, unknown>) {
      const response = await fetch(`${apiUrl}/v2${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { 'x-api-key': keys.secretKey, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : null,
      });
      const json = (await response.json()) as T;
      if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    },
    stop: async () => (await launcher.stop()).code,
  };
}

/** The launcher prints `Demo shop is running at URL  (Payframe API: URL)` once both listen. */
function readyUrls(output: string): [string, string] | null {
  const match = /Demo shop is running at (\S+)\s+\(Payframe API: (\S+)\)/.exec(output);
  return match?.[1] && match[2] ? [match[1], match[2]] : null;
}
