import type { Page } from '@playwright/test';

/** Path of the hosted 3-D Secure page: `{PUBLIC_URL}/3d-secure/{chargeId}?paRes=…`. */
export const THREE_DS_PATH = /\/3d-secure\/[^/?#]+$/;

/**
 * On the hosted 3-D Secure page (waits for it), presses "Complete authentication" (`#authenticate`)
 * or "Fail authentication" (`#fail`), and resolves once the browser has left for the merchant's
 * `return_url` (Payframe answers the button with a 303 there, adding `charge_id` and `status`).
 * Resolves with the URL the shopper landed on.
 */
export async function completeThreeDS(page: Page, outcome: 'authenticate' | 'fail'): Promise<URL> {
  await page.waitForURL((url) => THREE_DS_PATH.test(url.pathname));
  await Promise.all([
    page.waitForURL((url) => !THREE_DS_PATH.test(url.pathname)),
    page.locator(outcome === 'authenticate' ? '#authenticate' : '#fail').click(),
  ]);
  return new URL(page.url());
}
