import { testCard } from '@payframe/contract/testing';
import { completeThreeDS, TEST_CARDS, THREE_DS_PATH } from '@payframe/qa-kit';
import { expect, test } from './support/shop-checkout.ts';
import { type Charge, expectOutcome, numberOf, SCENARIOS, shot } from './support/three-ds-scenarios.ts';

// The 3-D Secure scenario cards by the full redirect to Payframe's page (SHOP_3DS_DISPLAY=redirect),
// with screenshots of each page at 375 px and on a desktop.

test.use({ threeDSDisplay: 'redirect' });

for (const scenario of SCENARIOS) {
  test(`redirect-${scenario.card}: ${numberOf(scenario)} ends ${scenario.transStatus} on Payframe's page`, async ({ flow, shop }) => {
    const { page } = flow;
    await flow.buyWith(TEST_CARDS[scenario.card]);
    if (scenario.page !== 'frictionless') {
      await expect(page).toHaveURL((url) => THREE_DS_PATH.test(url.pathname));
      await expect(page.locator('main')).toHaveAttribute('data-page', scenario.page);
      const chargeId = new URL(page.url()).pathname.split('/').pop();
      for (const [name, size] of [
        ['desktop', { width: 1280, height: 800 }],
        ['375', { width: 375, height: 740 }],
      ] as const) {
        await page.setViewportSize(size);
        await shot(page, `page-${name}-${scenario.page}`);
      }
      await completeThreeDS(page, scenario.action);
      await expectOutcome(page, scenario);
      expect((await shop.api<Charge>(`/charges/${chargeId}`)).threedSecure.transStatus).toBe(scenario.transStatus);
    } else {
      // It goes on by itself: the shopper lands on the receipt without pressing anything, and the
      // kit, called after that, answers with the outcome at once instead of waiting for a page.
      await expectOutcome(page, scenario);
      const chargeId = await page.getByTestId('receipt-charge-id').textContent();
      expect(await completeThreeDS(page, scenario.action)).toEqual({ chargeId, status: 'CHARGEABLE', transStatus: 'Y' });
    }
    expect(flow.consoleErrors).toEqual([]);
  });
}

test('frictionless-nojs: without JavaScript the frictionless page waits for #continue', async ({ browser, shop }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    const token = await fetch(`${shop.apiUrl}/v2/tokens`, {
      method: 'POST',
      headers: { 'x-api-key': shop.keys.publishableKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        card: testCard(TEST_CARDS.frictionless3DS.number),
        shopper: { email: 'ada@example.com', session_id: 'nojs' },
      }),
    }).then((response) => response.json() as Promise<{ id: string }>);
    // The shop's checkout form posted by hand, as a browser without JavaScript could not tokenize.
    const response = await page.request.post(`${shop.url}/checkout`, { form: { product: 'mug', token: token.id }, maxRedirects: 0 });
    const redirect = response.headers().location ?? '';
    await page.goto(redirect);
    await expect(page.locator('main')).toHaveAttribute('data-page', 'frictionless');
    await expect(page.locator('h1')).toHaveText('Checking with your bank…');
    for (const [name, size] of [
      ['desktop', { width: 1280, height: 800 }],
      ['375', { width: 375, height: 740 }],
    ] as const) {
      await page.setViewportSize(size);
      await shot(page, `page-${name}-frictionless`);
    }
    await page.locator('#continue').click();
    await expect(page.getByTestId('receipt-status')).toHaveText('Paid');
  } finally {
    await context.close();
  }
});
