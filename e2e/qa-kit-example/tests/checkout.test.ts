import { completeThreeDS, fillCard, TEST_CARDS } from '@payframe/qa-kit';
import { expect, test } from '@playwright/test';

test('a card that needs 3-D Secure pays for a mug', async ({ page }) => {
  await page.goto('/checkout?product=mug');
  await fillCard(page, { number: TEST_CARDS.visa3DS.number, email: 'ada@example.com' });
  await page.getByTestId('pay').click();
  await completeThreeDS(page, 'authenticate');
  await expect(page.getByTestId('receipt-status')).toHaveText('Paid');
});

test('a declined card is refused on the checkout page', async ({ page }) => {
  await page.goto('/checkout?product=mug');
  await fillCard(page, { number: TEST_CARDS.declined.number, email: 'ada@example.com' });
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('checkout-error')).toHaveAttribute('data-decline-reason', TEST_CARDS.declined.outcome.declineReason);
});
