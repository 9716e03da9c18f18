import { expireCharge, TEST_CARDS, THREE_DS_PATH } from '@payframe/qa-kit';
import { expect, test } from './support/shop-checkout.ts';

// These flows follow the full redirect to Payframe's page (the shop's SHOP_3DS_DISPLAY=redirect).
test.use({ threeDSDisplay: 'redirect' });

// After the checkout: refunds from the receipt, and the order list reading live charge states.

type Charge = { status: string; reason: string | null; amount_refunded: number };

test('refunds: a partial then a full refund from the receipt, with a refusal of too much in between', async ({ flow, shop }) => {
  const { page } = flow;
  await flow.buyWith(TEST_CARDS.mastercardDebit, 'hoodie');
  await expect(page.getByTestId('receipt-status')).toHaveText('Paid');
  await expect(page.getByTestId('receipt-amount')).toHaveText('€45.00');
  await flow.shot('receipt');
  const chargeId = await page.getByTestId('receipt-charge-id').textContent();

  await page.getByTestId('refund-amount').fill('2.50');
  await page.getByTestId('refund-partial').click();
  await expect(page.getByTestId('refund-notice')).toHaveText('Refunded €2.50.');
  await expect(page.getByTestId('receipt-status')).toHaveText('Partially refunded');
  await expect(page.getByTestId('receipt-refunded')).toHaveText('€2.50');
  await flow.shot('partial-refund');
  expect(await shop.api<Charge>(`/charges/${chargeId}`)).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount_refunded: 250 });

  await page.getByTestId('refund-amount').fill('43');
  await page.getByTestId('refund-partial').click();
  await expect(page.getByTestId('refund-error')).toHaveText('That is more than what remains to refund.');
  await expect(page.getByTestId('receipt-refunded')).toHaveText('€2.50');
  await flow.shot('too-much');
  await flow.expectAccessible('receipt with a refund error');

  await expect(page.getByTestId('refund-full')).toHaveText('Refund €42.50 (everything left)');
  await page.getByTestId('refund-full').click();
  await expect(page.getByTestId('refund-notice')).toHaveText('Refunded €42.50.');
  await expect(page.getByTestId('receipt-status')).toHaveText('Refunded');
  await expect(page.getByTestId('receipt-refunded')).toHaveText('€45.00');
  await expect(page.getByTestId('refund-row')).toHaveCount(2);
  await expect(page.getByTestId('refund-full')).toHaveCount(0);
  await flow.shot('full-refund');
  expect(await shop.api<Charge>(`/charges/${chargeId}`)).toMatchObject({ status: 'REFUNDED', amount_refunded: 4500 });

  // The error code comes from the query string: names the message table merely inherits get the generic message.
  const receiptUrl = page.url().split('?')[0];
  for (const code of ['constructor', '__proto__', 'toString']) {
    await page.goto(`${receiptUrl}?error=${code}`);
    await expect(page.getByTestId('refund-error')).toHaveText('The refund could not be made.');
  }

  await page.getByTestId('nav-orders').click();
  await expect(page.locator(`[data-charge-id="${chargeId}"] [data-testid="order-status"]`)).toHaveText('Refunded');
  await flow.shot('orders');
  await flow.expectAccessible('order list');
  expect(flow.consoleErrors).toEqual([]);
});

test('expiry: an order left at 3-D Secure expires at its deadline (expired by the test helper), and the order list shows it', async ({ flow, shop }) => {
  const { page } = flow;
  await flow.buyWith(TEST_CARDS.visa3DS, 'notebook');
  await expect(page).toHaveURL((url) => THREE_DS_PATH.test(url.pathname));
  await flow.shot('3ds-page');
  const chargeId = new URL(page.url()).pathname.split('/').pop();

  // Back at the shop without authenticating, with a forged status: the shop believes the charge, not the URL.
  const { threedSecure } = await shop.api<{ threedSecure: { returnUrl: string } }>(`/charges/${chargeId}`);
  await page.goto(`${threedSecure.returnUrl}?charge_id=${chargeId}&status=CHARGEABLE`);
  await expect(page.getByTestId('payment-pending-message')).toContainText('still waiting for you to confirm');
  await expect(page.getByTestId('continue-authentication')).toHaveAttribute('href', new RegExp(`/3d-secure/${chargeId}\\?paRes=`));
  await flow.shot('forged-return');

  // The shopper walks away: the charge stays uncaptured.
  await page.goto(`${shop.url}/orders`);
  const status = page.locator(`[data-testid="order-row"][data-charge-id="${chargeId}"] [data-testid="order-status"]`);
  await expect(status).toHaveText('Awaiting 3-D Secure');
  await flow.shot('orders-before');

  // This charge alone reaches its deadline: the account's clock stays put for the tests running beside this one.
  await expireCharge(chargeId ?? '', { apiKey: shop.keys.secretKey, apiBase: shop.apiUrl });
  await page.reload();
  await expect(status).toHaveText('Expired — never captured, authorization released');
  await expect(status).toHaveAttribute('data-charge-status', 'REFUNDED');
  await flow.shot('orders-after');

  await page.locator(`[data-testid="order-row"][data-charge-id="${chargeId}"] [data-testid="order-link"]`).click();
  await expect(page.getByTestId('receipt-status')).toHaveAttribute('data-state', 'expired');
  await expect(page.getByTestId('receipt-refunded')).toHaveText('€8.50');
  await expect(page.getByTestId('refund-full')).toHaveCount(0);
  await expect(page.getByTestId('continue-authentication')).toHaveCount(0);
  await flow.shot('receipt');
  expect(await shop.api<Charge>(`/charges/${chargeId}`)).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED', amount_refunded: 850 });
  expect(flow.consoleErrors).toEqual([]);
});
