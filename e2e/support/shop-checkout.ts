import { mkdirSync } from 'node:fs';
import { type CardInput, fillCard } from '@payframe/qa-kit';
import { test as base, expect, type Page } from '@playwright/test';
import { analyzeWithFrames } from './axe.ts';
import { type DemoShop, startDemoShop, type ThreeDSDisplay } from './demo-shop.ts';

const SCREENSHOTS = new URL('../../test-results/checkout/', import.meta.url);
mkdirSync(SCREENSHOTS, { recursive: true });

export type ShopFlow = {
  page: Page;
  /** Saves a full-page screenshot as test-results/checkout/<flow>-<nn>-<step>.png. */
  shot(step: string): Promise<void>;
  /** Product page → Buy now → checkout, then types the card into the widget (with an e-mail) and presses Pay. */
  buyWith(card: CardInput, product?: string): Promise<void>;
  /** Fails on any serious or critical axe violation of the page as it stands (the widget's frame included). */
  expectAccessible(what: string): Promise<void>;
  /** Console errors of every frame (a CSP violation is one). */
  consoleErrors: string[];
};

/**
 * `shop`: one `npm start` (API and demo shop) per worker and 3-D Secure display. `flow`: a shopper's browser; its screenshots
 * are named after the test title's part before the colon ("3ds-fail: …" → 3ds-fail-01-….png).
 */
export const test = base.extend<{ flow: ShopFlow }, { shop: DemoShop; threeDSDisplay: ThreeDSDisplay }>({
  /** How the shop runs 3-D Secure: its dialog (the default) or the full redirect (`test.use({ threeDSDisplay: 'redirect' })`). */
  threeDSDisplay: ['modal', { scope: 'worker', option: true }],
  shop: [
    async ({ threeDSDisplay }, use) => {
      const shop = await startDemoShop(undefined, threeDSDisplay);
      await use(shop);
      await shop.stop();
    },
    // Starting `npm start` is the worker's cost, not a test's: on a loaded machine it alone can take
    // most of a test's 30 s, and a failed test restarts its worker (and so the shop).
    { scope: 'worker', timeout: 120_000 },
  ],
  flow: async ({ page, shop }, use, testInfo) => {
    const flowName = (testInfo.title.split(':')[0] ?? 'flow').trim().replace(/[^\w-]+/g, '-');
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    let step = 0;
    const flow: ShopFlow = {
      page,
      consoleErrors,
      async shot(name) {
        step += 1;
        const file = `${flowName}-${String(step).padStart(2, '0')}-${name}.png`;
        await page.screenshot({ path: new URL(file, SCREENSHOTS).pathname, fullPage: true });
      },
      async expectAccessible(what) {
        const results = await analyzeWithFrames(page);
        const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
        expect(
          serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
          what,
        ).toEqual([]);
      },
      async buyWith(card, product = 'mug') {
        await page.goto(`${shop.url}/products/${product}`);
        await page.getByTestId('buy').click();
        await expect(page.getByTestId('checkout')).toBeVisible();
        await fillCard(page, { email: 'ada@example.com', ...card });
        await flow.shot('card-entered');
        await page.getByTestId('pay').click();
      },
    };
    await use(flow);
  },
});

export { expect };
