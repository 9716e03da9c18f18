import { chromiumLaunchOptions } from '@payframe/qa-kit';
import { defineConfig } from '@playwright/test';

export default defineConfig({
  use: {
    // Your site in test mode (here the demo shop of `npm start`).
    baseURL: process.env.BASE_URL ?? 'http://127.0.0.1:4001',
    browserName: 'chromium',
    launchOptions: chromiumLaunchOptions(),
  },
});
