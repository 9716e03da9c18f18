import { Payframe } from '@payframe/node';
import { TEST_CARDS, THREE_DS_PATH, waitForEvent } from '@payframe/qa-kit';
import { expect, test } from './support/shop-checkout.ts';

// The shopper leaves Payframe's own page before the return: the full redirect, not the shop's dialog.
test.use({ threeDSDisplay: 'redirect' });

// The shop learns of the payment from Payframe's webhook, not from the shopper's browser: a shopper
// who authenticates 3-D Secure and closes the tab before the return still gets a paid order.

test('3ds-closed-tab: the shopper authenticates 3-D Secure and closes the page before the return; the order shows Paid within seconds', async ({
  flow,
  shop,
  context,
}) => {
  const { page } = flow;
  await flow.buyWith(TEST_CARDS.visa3DS);
  await expect(page).toHaveURL((url) => url.origin === shop.apiUrl && THREE_DS_PATH.test(url.pathname));
  const chargeId = new URL(page.url()).pathname.split('/').pop() ?? '';

  // The shopper presses "Complete authentication" and the tab is gone before the way back loads:
  // the page's POST reaches Payframe, its redirect to the shop's return URL is never followed.
  let answered = 0;
  await page.route(
    (url) => THREE_DS_PATH.test(url.pathname),
    async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      answered = (await route.fetch({ maxRedirects: 0 })).status();
      return route.abort();
    },
  );
  await page.locator('#authenticate').click();
  await expect.poll(() => answered).toBe(303);
  await page.close();

  const payframe = new Payframe(shop.keys.secretKey, { apiBase: shop.apiUrl });
  const captured = await waitForEvent(payframe, { name: 'charge.captured', charge: chargeId, timeoutMs: 15_000 });
  expect(captured.data.object).toMatchObject({ id: chargeId, status: 'CHARGE_SUCCESS' });

  const orders = await context.newPage();
  await orders.goto(`${shop.url}/orders`);
  await expect(orders.locator(`[data-testid="order-row"][data-charge-id="${chargeId}"] [data-testid="order-status"]`)).toHaveText('Paid');
});
