import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillCard, TEST_CARDS } from '@payframe/qa-kit';
import { expect, test } from './support/shop-checkout.ts';

// Whole checkouts through the demo shop (packages/demo-shop), started as `npm start` starts it:
// real API and shop processes, the real widget and hosted 3-D Secure page, Chromium.

const ORDER_URL = /\/orders\/(ord_[0-9a-f]{16})$/;
type Charge = { status: string; amount: number; fees: number | null; txn_reference: string; threedSecure: { status: string; returnUrl: string } };

test('frictionless: a card without 3-D Secure is charged, captured at once and gets a receipt', async ({ flow, shop }) => {
  const { page } = flow;
  await page.goto(shop.url);
  await flow.shot('products');
  await page.getByTestId('product-link-mug').click();
  await expect(page.getByTestId('product-price')).toHaveText('€12.00');
  await flow.shot('product');

  const [checkout] = await Promise.all([page.waitForResponse((response) => response.url().includes('/checkout?')), page.getByTestId('buy').click()]);
  const csp = checkout.headers()['content-security-policy'] ?? '';
  expect(csp).toContain(`script-src 'self' ${shop.apiUrl};`);
  expect(csp).toContain(`frame-src ${shop.apiUrl};`);
  expect(csp).toContain("default-src 'none'");
  await expect(page.getByTestId('checkout-amount')).toHaveText('€12.00');
  await expect(page.getByTestId('pay')).toBeEnabled();
  await flow.shot('checkout');
  await flow.expectAccessible('checkout');

  await fillCard(page, { ...TEST_CARDS.visa, email: 'ada@example.com' });
  await flow.shot('card-entered');
  await page.getByTestId('pay').click();
  await expect(page).toHaveURL(ORDER_URL);
  const orderId = ORDER_URL.exec(page.url())?.[1] ?? '';
  await expect(page.getByTestId('receipt-status')).toHaveText('Paid');
  await expect(page.getByTestId('receipt-order-id')).toHaveText(orderId);
  await expect(page.getByTestId('receipt-card')).toHaveText('VISA •••• 4242');
  await expect(page.getByTestId('receipt-amount')).toHaveText('€12.00');
  await flow.shot('receipt');
  await flow.expectAccessible('receipt');

  // What Payframe holds: the shop charged the catalog price, pointed 3-D Secure back at itself, and captured.
  const chargeId = await page.getByTestId('receipt-charge-id').textContent();
  const charge = await shop.api<Charge>(`/charges/${chargeId}`);
  expect(charge).toMatchObject({
    status: 'CHARGE_SUCCESS',
    amount: 1200,
    fees: 51,
    txn_reference: orderId,
    threedSecure: { status: 'CAPTURED', returnUrl: `${shop.url}/orders/${orderId}/return` },
  });
  // The card number never reached the shop: not its pages, not its orders file.
  const orders = readFileSync(join(shop.dataDir, 'demo-shop', 'orders.json'), 'utf8');
  expect(orders).toContain(orderId);
  for (const text of [orders, await page.content()]) expect(text).not.toContain(TEST_CARDS.visa.number);
  expect(flow.consoleErrors).toEqual([]);
});

test('declines: a generic decline and insufficient funds each say so on the checkout page, and no order is made', async ({ flow, shop }) => {
  const { page } = flow;
  const orderCount = async () => (await (await fetch(`${shop.url}/orders`)).text()).split('data-testid="order-row"').length - 1;
  const before = await orderCount();

  await flow.buyWith(TEST_CARDS.declined);
  const message = page.getByTestId('checkout-error');
  await expect(message).toHaveText('Your card was declined. Try another card or contact your bank.');
  await expect(message).toHaveAttribute('data-decline-reason', 'GENERIC_DECLINE');
  await expect(page).toHaveURL(`${shop.url}/checkout`);
  await flow.shot('generic-decline');
  await flow.expectAccessible('checkout with a decline');

  // The same checkout, a fresh card form: the next card is typed in place (found from the element it is mounted on).
  await fillCard(page.getByTestId('card-host'), { ...TEST_CARDS.insufficientFunds, email: 'ada@example.com' });
  await page.getByTestId('pay').click();
  await expect(message).toHaveText('Your card has insufficient funds. Try another card.');
  await expect(message).toHaveAttribute('data-decline-reason', 'INSUFFICIENT_FUNDS');
  await flow.shot('insufficient-funds');

  expect(await orderCount()).toBe(before);
  // The refused checkout answers 402 Payment Required, which Chromium reports for the document itself.
  expect(flow.consoleErrors.filter((error) => !/status of 402 .*\/checkout\)$/.test(error))).toEqual([]);
});
