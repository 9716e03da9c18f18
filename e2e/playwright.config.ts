import { chromiumLaunchOptions } from '@payframe/qa-kit';
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/playwright',
  fullyParallel: false,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  forbidOnly: true,
  use: {
    browserName: 'chromium',
    headless: true,
    // Debian's Chromium: Playwright cannot download its own browsers here (see ensure-chromium.sh).
    launchOptions: chromiumLaunchOptions({ defaultExecutablePath: '/usr/bin/chromium' }),
  },
});
