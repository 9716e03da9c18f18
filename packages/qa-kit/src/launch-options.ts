import type { LaunchOptions } from '@playwright/test';

export type ChromiumLaunchChoices = {
  /** The Chromium to use when `CHROMIUM_PATH` is not set; without either, Playwright's own download. */
  defaultExecutablePath?: string;
};

/**
 * Playwright `launchOptions` for Chromium in CI containers: the browser at `CHROMIUM_PATH` (a system
 * Chromium, where Playwright cannot download its own), and `--no-sandbox` when running as root,
 * where Chromium refuses to start with its sandbox.
 */
export function chromiumLaunchOptions(choices: ChromiumLaunchChoices = {}): LaunchOptions {
  const executablePath = process.env.CHROMIUM_PATH || choices.defaultExecutablePath;
  const args = ['--disable-gpu', '--disable-background-networking', '--disable-component-update'];
  if (process.getuid?.() === 0) args.unshift('--no-sandbox');
  return executablePath ? { executablePath, args } : { args };
}
