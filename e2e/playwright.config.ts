import { existsSync } from 'node:fs';
import { chromiumLaunchOptions } from '@payframe/qa-kit';
import { defineConfig } from '@playwright/test';

// Debian's headless shell: the same Chromium without the browser's windowing layer, and far less of
// the two cores for each page (ensure-chromium.sh installs it as root). The full browser otherwise.
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromium = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/playwright',
  // Every spec is parallel-safe: each worker runs its own servers, tests make their own objects,
  // and expiry is per object (test helpers), never an account clock shared with another test.
  fullyParallel: true,
  workers: 2,
  // Above Playwright's defaults (30 s, 5 s): the suite shares two cores with other work, and a
  // checkout through a real server, shop and browser is many round trips. The kit's own limits
  // (completeThreeDS 10 s) stay below them, so its failures still read as themselves.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  forbidOnly: true,
  use: {
    browserName: 'chromium',
    headless: true,
    // Debian's Chromium: Playwright cannot download its own browsers here (see ensure-chromium.sh).
    launchOptions: chromiumLaunchOptions({ defaultExecutablePath: chromium }),
  },
});
