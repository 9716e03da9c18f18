import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBannerUrl, spawnServe, tempDataDir } from '@payframe/server/process';

export type DemoPayframe = { url: string; dataDir: string; secretKey: string; publishableKey: string; stop(): Promise<void> };

/** A real `payframe serve --demo` on a free port and a fresh data directory, ready once it prints its banner. */
export async function startDemoPayframe(): Promise<DemoPayframe> {
  const dataDir = tempDataDir('payframe-shop-test-');
  const server = await spawnServe({ args: ['--demo', '--data-dir', dataDir], ready: demoBannerUrl, env: { ...process.env, LOG_LEVEL: 'warn' } });
  const keys = JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')) as { secretKey: string; publishableKey: string };
  return {
    url: server.url,
    dataDir,
    ...keys,
    stop: async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
