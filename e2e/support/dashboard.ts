import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { demoBannerUrl, type ServerProcess, spawnServe, tempDataDir } from '@payframe/server/process';
import { expect, type Page } from '@playwright/test';

export type Credentials = { email: string; password: string };

export type DemoServer = {
  server: ServerProcess;
  dataDir: string;
  /** The demo account's test-mode secret key. */
  secretKey: string;
  /** The demo account's dashboard user. */
  demo: Credentials;
};

/** Where the dashboard specs leave their screenshots. */
const SHOTS = 'test-results/dashboard';

/** A `payframe serve --demo` on a data directory of its own, with the keys and the user it wrote there. */
export async function startDemo(dataDirPrefix: string): Promise<DemoServer> {
  const dataDir = tempDataDir(dataDirPrefix);
  const server = await spawnServe({ args: ['--demo', '--data-dir', dataDir], ready: demoBannerUrl });
  const secretKey = JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')).secretKey;
  const demo = JSON.parse(readFileSync(join(dataDir, 'demo-user.json'), 'utf8'));
  return { server, dataDir, secretKey, demo };
}

/** Signs in from the sign-in page and waits for the home page and its shell. */
export async function signIn(page: Page, url: string, user: Credentials): Promise<void> {
  await page.goto(`${url}/dashboard`);
  await page.getByTestId('login-email').fill(user.email);
  await page.getByTestId('login-password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await expect(page.getByTestId('mode-switch')).toBeVisible();
}

/**
 * Nothing serious or critical, and a screenshot at 375 px and at desktop width.
 *
 * The dashboard's pages hold no frame, so axe runs in the page alone (the builder's legacy mode):
 * its default runs each frame's part, then merges the parts in a blank page it opens for every
 * analysis, which took most of the time. A page that gains a frame fails here first: frames need
 * analyzeWithFrames (support/axe.ts).
 */
export async function auditAndShoot(page: Page, name: string): Promise<void> {
  expect(page.frames(), 'a dashboard page with a frame needs analyzeWithFrames').toHaveLength(1);
  const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const grave = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(grave.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `${SHOTS}/${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}/${name}-desktop.png`, fullPage: true });
}
