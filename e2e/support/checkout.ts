import type { Card, TokenResult } from '@payframe/widget/types';
import { test as base, expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { type MerchantSite, startMerchant } from './merchant-site.ts';
import { type Keys, type PayframeServer, startPayframe } from './payframe-server.ts';

declare global {
  interface Window {
    cardEvents: Array<{ name: string; detail: unknown }>;
    readyAfterMs: number;
    tokenResult: TokenResult | undefined;
    card: Card;
    /** Every message the merchant's window or its channel port received, as JSON. */
    receivedMessages: string[];
  }
}

export type Checkout = {
  page: Page;
  frame: FrameLocator;
  field(testId: string): Locator;
  /** Opens the merchant's checkout page and resolves once the card form is ready. */
  open(options?: Record<string, unknown>, keys?: Keys): Promise<void>;
  /** Clicks the merchant's Pay button and resolves with what createToken() resolved with. */
  pay(): Promise<TokenResult>;
  /** Console errors of the page and the frame (a CSP violation is one). */
  consoleErrors: string[];
};

type Sites = { payframe: PayframeServer; merchant: MerchantSite };

export const test = base.extend<{ checkout: Checkout }, { sites: Sites }>({
  sites: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring; this one has none.
    async ({}, use) => {
      const payframe = await startPayframe();
      const merchant = await startMerchant(payframe.url);
      await use({ payframe, merchant });
      await merchant.stop();
      await payframe.stop();
    },
    { scope: 'worker' },
  ],
  checkout: async ({ page, sites }, use) => {
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    await page.addInitScript(() => {
      if (window.top !== window) return;
      // Records what reaches the merchant's page: window messages and everything on the channel's port.
      window.receivedMessages = [];
      window.addEventListener('message', (event) => window.receivedMessages.push(JSON.stringify(event.data)), true);
      const descriptor = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
      Object.defineProperty(MessagePort.prototype, 'onmessage', {
        ...descriptor,
        set(this: MessagePort, handler: ((event: MessageEvent) => void) | null) {
          const recording =
            handler &&
            ((event: MessageEvent) => {
              window.receivedMessages.push(JSON.stringify(event.data));
              handler.call(this, event);
            });
          descriptor?.set?.call(this, recording);
        },
      });
    });
    const frame = page.frameLocator('iframe[name="payframe-card"]');
    const checkout: Checkout = {
      page,
      frame,
      field: (testId) => frame.getByTestId(testId),
      consoleErrors,
      async open(options = {}, keys = sites.payframe.keys) {
        sites.merchant.configure({ publishableKey: keys.publishableKey, email: 'ada@example.com', options });
        await page.goto(`${sites.merchant.url}/checkout`);
        await expect(page.locator('#card')).toHaveAttribute('data-payframe-ready', '');
      },
      async pay() {
        await page.evaluate(() => {
          window.tokenResult = undefined;
        });
        await page.locator('#pay').click();
        await page.waitForFunction(() => window.tokenResult !== undefined);
        return page.evaluate(() => window.tokenResult as TokenResult);
      },
    };
    await use(checkout);
  },
});

export { expect };
