import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumLaunchOptions } from '@payframe/qa-kit';
import { defineConfig } from '@playwright/test';

// A throwaway data directory for this run. Playwright loads this file again in each worker: they
// inherit the directory through the environment, where `payframe serve` reads it too.
process.env.PAYFRAME_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'payframe-qa-'));
const port = Number(process.env.PAYFRAME_PORT ?? 4010);
process.env.PAYFRAME_URL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'tests',
  webServer: {
    // --demo writes the test-mode demo keys to $PAYFRAME_DATA_DIR/demo-keys.json before it listens.
    command: `npx payframe serve --demo --port ${port}`,
    url: `${process.env.PAYFRAME_URL}/healthz`,
  },
  use: {
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
  },
});
