import { CARD_FRAME, completeThreeDS, fillCard, TEST_CARDS, THREE_DS_PATH } from '@payframe/qa-kit';
import { expect, test } from './support/shop-checkout.ts';

// These flows follow the full redirect to Payframe's page (the shop's SHOP_3DS_DISPLAY=redirect).
test.use({ threeDSDisplay: 'redirect' });

// Cards that need 3-D Secure, through the demo shop and Payframe's hosted page: the shopper
// authenticates (and the shop captures) or fails (and the shop says so and cancels the charge).

const ORDER_URL = /\/orders\/(ord_[0-9a-f]{16})$/;
type Charge = { status: string; reason: string | null; amount_refunded: number; threedSecure: { status: string } };

test('3ds-authenticate: a card that needs 3-D Secure goes to the hosted page, authenticates and comes back captured', async ({ flow, shop }) => {
  const { page } = flow;
  await flow.buyWith(TEST_CARDS.visa3DS);
  await expect(page).toHaveURL((url) => url.origin === shop.apiUrl && THREE_DS_PATH.test(url.pathname));
  await expect(page.locator('#authenticate')).toBeVisible();
  await flow.shot('3ds-page');
  const chargeId = new URL(page.url()).pathname.split('/').pop();

  // Payframe sends the shopper to the return URL with charge_id and status; the shop then captures.
  const returned = page.waitForRequest((request) => request.url().startsWith(`${shop.url}/orders/`) && request.url().includes('/return?'));
  // The outcome as 3-D Secure settled it, though the shop captures at once.
  expect(await completeThreeDS(page, 'authenticate')).toEqual({ chargeId, status: 'CHARGEABLE', transStatus: 'Y' });
  const returnUrl = new URL((await returned).url());
  expect(returnUrl.searchParams.get('charge_id')).toBe(chargeId);
  expect(returnUrl.searchParams.get('status')).toBe('CHARGEABLE');
  await expect(page).toHaveURL(ORDER_URL);
  await expect(page.getByTestId('receipt-status')).toHaveText('Paid');
  await expect(page.getByTestId('receipt-card')).toHaveText('VISA •••• 3220');
  await flow.shot('receipt');
  expect(await shop.api<Charge>(`/charges/${chargeId}`)).toMatchObject({ status: 'CHARGE_SUCCESS', threedSecure: { status: 'CAPTURED' } });
  expect(flow.consoleErrors).toEqual([]);
});

test('3ds-fail: a shopper who fails 3-D Secure is told so, nothing is charged, and pays with another card', async ({ flow, shop }) => {
  const { page } = flow;
  await flow.buyWith(TEST_CARDS.mastercard3DS);
  await expect(page.locator('#fail')).toBeVisible();
  await flow.shot('3ds-page');
  const chargeId = new URL(page.url()).pathname.split('/').pop();

  const returned = page.waitForRequest((request) => request.url().startsWith(`${shop.url}/orders/`) && request.url().includes('/return?'));
  expect(await completeThreeDS(page, 'fail')).toEqual({ chargeId, status: 'FAILED', transStatus: 'N' });
  expect(new URL((await returned).url()).searchParams.get('status')).toBe('FAILED');
  await expect(page.getByTestId('payment-failed-message')).toHaveText('Authentication failed, try another card.');
  await flow.shot('failed');
  await flow.expectAccessible('payment failed');
  // The shop cancels the charge at once, so the shopper's funds are not held for seven days.
  expect(await shop.api<Charge>(`/charges/${chargeId}`)).toMatchObject({ status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API', amount_refunded: 0 });

  // Another card pays for the same product (typed through a FrameLocator of the widget, as the QA kit allows).
  await page.getByTestId('try-another-card').click();
  await expect(page.getByTestId('checkout-product')).toHaveText('Payframe mug');
  await fillCard(page.frameLocator(CARD_FRAME), { ...TEST_CARDS.visa, email: 'ada@example.com' });
  await flow.shot('try-again');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('receipt-status')).toHaveText('Paid');
  await flow.shot('paid-with-another-card');
  const paidChargeId = await page.getByTestId('receipt-charge-id').textContent();

  await page.getByTestId('nav-orders').click();
  const status = (id: string | null | undefined) => page.locator(`[data-testid="order-row"][data-charge-id="${id}"] [data-testid="order-status"]`);
  await expect(status(chargeId)).toHaveText('Authentication failed');
  await expect(status(paidChargeId)).toHaveText('Paid');
  await flow.shot('orders');
  expect(flow.consoleErrors).toEqual([]);
});
