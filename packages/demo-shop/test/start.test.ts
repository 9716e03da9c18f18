import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { freePort, spawnNode, tempDataDir } from '@payframe/server/process';
import { describe, expect, it } from 'vitest';

const LAUNCHER = fileURLToPath(new URL('../src/start.ts', import.meta.url));

/** `npm start` itself: the launcher, the API process it starts, and the shop, as an operator runs them. */
describe('npm start', () => {
  it('serves the API on the port the server is configured with (PORT, else 4000), not on a free one', async () => {
    const dataDir = tempDataDir('payframe-start-test-');
    const [apiPort, shopPort] = [await freePort('127.0.0.1'), await freePort('127.0.0.1')];
    const launcher = await spawnNode(LAUNCHER, [], {
      nodeArgs: ['--import', 'tsx'],
      env: { ...process.env, PORT: String(apiPort), SHOP_PORT: String(shopPort), PAYFRAME_DATA_DIR: dataDir },
      ready: (output) => /Demo shop is running at (\S+)/.exec(output)?.[1] ?? null,
    });
    try {
      expect(launcher.ready).toBe(`http://127.0.0.1:${shopPort}`);
      expect(launcher.output()).toContain(`Payframe is running at http://127.0.0.1:${apiPort}`);
      const health = await fetch(`http://127.0.0.1:${apiPort}/healthz`);
      expect(health.status).toBe(200);
      expect((await fetch(launcher.ready)).status).toBe(200);
    } finally {
      await launcher.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
