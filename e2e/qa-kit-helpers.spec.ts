import { testCard } from '@payframe/contract/testing';
import {
  CARD_FRAME,
  COMPLETE_THREE_DS_TIMEOUT_MS,
  completeThreeDS,
  expireCharge,
  fillCard,
  futureExpiry,
  TEST_CARDS,
  type TestCard,
  THREE_DS_FRAME,
  THREE_DS_PATH,
  waitForEvent,
} from '@payframe/qa-kit';
import type { Page } from '@playwright/test';
import type { DemoShop } from './support/demo-shop.ts';
import { expect, test } from './support/shop-checkout.ts';

// The QA kit's promises (docs/qa-kit.md): completeThreeDS never hangs on a challenge that settled
// by itself or elsewhere and fails fast saying what it saw; fillCard is quick on a warm page; tests
// sharing one account expire their own charges without disturbing each other.

type Charge = { status: string; reason: string | null; threedSecure: { status: string; transStatus: string | null } };

test('kit-settled: completeThreeDS after the frictionless dialog has already continued answers at once', async ({ flow }) => {
  const { page } = flow;
  await flow.buyWith(TEST_CARDS.frictionless3DS);
  // The dialog opens, goes on by itself and closes, and the shop captures: several round trips.
  await expect(page.getByTestId('receipt-status')).toHaveText('Paid', { timeout: 20_000 });
  const chargeId = await page.getByTestId('receipt-charge-id').textContent();
  const started = Date.now();
  expect(await completeThreeDS(page, 'authenticate')).toEqual({ chargeId, status: 'CHARGEABLE', transStatus: 'Y' });
  expect(Date.now() - started).toBeLessThan(2_000);
});

test('kit-elsewhere: a challenge answered by the test helper resolves without a click', async ({ flow, shop }) => {
  const { page } = flow;
  await flow.buyWith(TEST_CARDS.visa3DS);
  await expect(page.frameLocator(THREE_DS_FRAME).locator('main')).toHaveAttribute('data-page', 'challenge');
  const src = (await page.locator(THREE_DS_FRAME).getAttribute('src')) ?? '';
  const chargeId = new URL(src).pathname.split('/').pop();
  await shop.api(`/test_helpers/charges/${chargeId}/authenticate`, { result: 'failure' });
  expect(await completeThreeDS(page, 'authenticate')).toEqual({ chargeId, status: 'FAILED', transStatus: 'N' });
});

/**
 * A charge made through the API, its 3-D Secure page opened straight from its redirect in a page
 * the kit has never seen: no fillCard, so nothing was watching when the page loaded. The return
 * URL is a page of the shop that stays where it is.
 */
async function openChallengeDirectly(page: Page, shop: DemoShop, card: TestCard): Promise<string> {
  const charge = await chargeThroughApi(shop, card);
  await page.goto(charge.threedSecure.redirect);
  return charge.id;
}

async function chargeThroughApi(shop: DemoShop, card: TestCard) {
  const token = await fetch(`${shop.apiUrl}/v2/tokens`, {
    method: 'POST',
    headers: { 'x-api-key': shop.keys.publishableKey, 'content-type': 'application/json' },
    body: JSON.stringify({ card: testCard(card.number), shopper: { email: 'ada@example.com', session_id: 'kit-direct' } }),
  }).then((response) => response.json() as Promise<{ id: string }>);
  const charge = await shop.api<{ id: string; threedSecure: { redirect: string } }>('/charges', {
    token: token.id,
    amount: 1250,
    currency: 'EUR',
    description: 'kit test',
    return_url: `${shop.url}/products/mug?from=3ds`,
  });
  return charge;
}

test('kit-unwatched: a frictionless page that went back to the shop before the kit looked answers from the return URL', async ({ flow, shop }) => {
  const { page } = flow;
  const chargeId = await openChallengeDirectly(page, shop, TEST_CARDS.frictionless3DS);
  await page.waitForURL((url) => !THREE_DS_PATH.test(url.pathname));
  const started = Date.now();
  expect(await completeThreeDS(page, 'authenticate')).toEqual({ chargeId, status: 'CHARGEABLE', transStatus: 'Y' });
  expect(Date.now() - started).toBeLessThan(2_000);
});

test('kit-unwatched-dialog: a frictionless dialog that closed on a page nothing watched answers at once', async ({ flow, shop }) => {
  const { page } = flow;
  // The shop goes on to its receipt once the dialog has closed; held back here (a 204 leaves the
  // document as it is), the page stays the one whose dialog came and went.
  await page.route(/\/orders\/[^/]+\/return\b/, (route) => route.fulfill({ status: 204 }));
  await page.goto(`${shop.url}/products/mug`);
  await page.getByTestId('buy').click();
  await expect(page.getByTestId('checkout')).toBeVisible();
  // Typed as a shopper would, without the kit: nothing watches this page's 3-D Secure.
  const card = page.frameLocator(CARD_FRAME);
  await card.getByTestId('card-number').fill(TEST_CARDS.frictionless3DS.number);
  await card.getByTestId('card-expiry').fill(futureExpiry());
  await card.getByTestId('card-cvc').fill('123');
  await card.getByTestId('card-name').fill('Ada Lovelace');
  await card.getByTestId('email').fill('ada@example.com');
  const wentOn = page.waitForRequest(/\/orders\/[^/]+\/return\b/);
  await page.getByTestId('pay').click();
  await wentOn;
  await expect(page.getByTestId('payment-authenticate')).toBeVisible();
  await expect(page.locator(THREE_DS_FRAME)).toHaveCount(0);
  const started = Date.now();
  const result = await completeThreeDS(page, 'authenticate');
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(result).toMatchObject({ status: 'CHARGEABLE', transStatus: 'Y' });
  const charge = await shop.api<Charge & { token: { card: { last4Digits: string } } }>(`/charges/${result.chargeId}`);
  // The shop may have captured it since (its webhook handler does): the issuer's answer stays.
  expect([charge.threedSecure.transStatus, charge.token.card.last4Digits]).toEqual(['Y', TEST_CARDS.frictionless3DS.number.slice(-4)]);
});

test('kit-issuer: the rejecting issuer’s page takes any answer, and the kit reports its transStatus as the charge has it', async ({ flow, shop }) => {
  const { page } = flow;
  const rejected = await openChallengeDirectly(page, shop, TEST_CARDS.rejected3DS);
  await expect(page.locator('main')).toHaveAttribute('data-page', 'rejected');
  expect(await completeThreeDS(page, 'fail')).toEqual({ chargeId: rejected, status: 'FAILED', transStatus: 'R' });
  // Settled by the test helper while the page is still shown: `success` is this issuer's own
  // answer (R), which the status alone (FAILED) does not tell from a failed challenge (N).
  const elsewhere = await openChallengeDirectly(page, shop, TEST_CARDS.rejected3DS);
  await expect(page.locator('main')).toHaveAttribute('data-page', 'rejected');
  await shop.api(`/test_helpers/charges/${elsewhere}/authenticate`, { result: 'success' });
  expect(await completeThreeDS(page, 'authenticate')).toEqual({ chargeId: elsewhere, status: 'FAILED', transStatus: 'R' });
  expect((await shop.api<Charge>(`/charges/${elsewhere}`)).threedSecure.transStatus).toBe('R');
});

test('kit-second: a second payment in one page is answered, not answered with the first one’s outcome', async ({ flow, shop }) => {
  const { page } = flow;
  const first = await openChallengeDirectly(page, shop, TEST_CARDS.visa3DS);
  expect(await completeThreeDS(page, 'fail')).toEqual({ chargeId: first, status: 'FAILED', transStatus: 'N' });
  // The shopper tries again: the kit is called before the next challenge has appeared, as it is
  // when the merchant's server takes a moment to make the charge.
  const second = await chargeThroughApi(shop, TEST_CARDS.visa3DS);
  const answered = completeThreeDS(page, 'authenticate');
  await page.goto(second.threedSecure.redirect);
  expect(await answered).toEqual({ chargeId: second.id, status: 'CHARGEABLE', transStatus: 'Y' });
});

test('kit-timeout: with nothing to answer, completeThreeDS gives up quickly and says what it saw', async ({ flow, shop }) => {
  const { page } = flow;
  expect(COMPLETE_THREE_DS_TIMEOUT_MS).toBeLessThan(test.info().timeout);
  await page.goto(`${shop.url}/products/mug`);
  const started = Date.now();
  const error = await completeThreeDS(page, 'authenticate', { timeout: 1_000 }).catch((caught: Error) => caught);
  expect(Date.now() - started).toBeLessThan(3_000);
  expect(String(error)).toMatch(/nothing to answer within 1000 ms/);
  expect(String(error)).toContain(`Saw: the page at ${shop.url}/products/mug`);
  expect(String(error)).toContain('no 3-D Secure dialog');
});

test('kit-stalled: a challenge whose answer never comes gives up with what the kit saw, not a bare locator timeout', async ({ flow, shop }) => {
  const { page } = flow;
  // The hosted page's POST (the shopper's answer) is held: nothing answers it.
  await page.route('**/3d-secure/**', (route) => (route.request().method() === 'POST' ? undefined : route.continue()));
  await openChallengeDirectly(page, shop, TEST_CARDS.visa3DS);
  const started = Date.now();
  const error = await completeThreeDS(page, 'authenticate', { timeout: 1_500 }).catch((caught: Error) => caught);
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toMatch(/^completeThreeDS: the 3-D Secure page at \S+ showed "challenge" and did not answer within 1500 ms/);
  expect((error as Error).message).toContain('Saw: the challenge as the page at');
});

test('kit-no-widget: fillCard on a page whose widget never becomes ready fails within its timeout and says so', async ({ flow, shop }) => {
  const { page } = flow;
  await page.goto(`${shop.url}/products/mug`);
  const started = Date.now();
  const error = await fillCard(page, TEST_CARDS.visa, { timeout: 1_000 }).catch((caught: Error) => caught);
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(String(error)).toContain('fillCard: the card widget never became ready');
});

test('kit-fill: fillCard fills a warm page’s card in well under a second, as a shopper’s typing would', async ({ flow, shop }) => {
  const { page } = flow;
  await page.goto(`${shop.url}/products/mug`);
  await page.getByTestId('buy').click();
  // The first fill warms the page (the frame connects, fonts and code load); the next five are measured.
  await fillCard(page, { ...TEST_CARDS.mastercard3DS, email: 'ada@example.com' });
  const times: number[] = [];
  for (let fill = 0; fill < 5; fill += 1) {
    const started = performance.now();
    await fillCard(page, { ...TEST_CARDS.visa, email: 'ada@example.com' });
    times.push(performance.now() - started);
  }
  const median = [...times].sort((a, b) => a - b)[2] ?? Number.NaN;
  test.info().annotations.push({ type: 'fillCard', description: `median ${Math.round(median)} ms of ${times.map(Math.round).join(', ')} ms` });
  // The median, with a wide margin (figures in docs/qa-kit.md): one fill slowed by another worker
  // on a shared host does not decide; a fill that got slow does.
  expect(median).toBeLessThan(1_000);
  // Formatted and recognised as typed by a shopper.
  const frame = page.frameLocator(CARD_FRAME);
  await expect(frame.getByTestId('card-number')).toHaveValue('4242 4242 4242 4242');
  await expect(frame.getByTestId('card-brand')).toHaveAttribute('data-brand', 'VISA');
  await page.getByTestId('pay').click();
  await expect(page.getByTestId('receipt-status')).toHaveText('Paid');
});

test('parallel: one shopper’s charge is expired while another pays and captures, on the same account', async ({ flow, shop, browser }) => {
  const options = { apiKey: shop.keys.secretKey, apiBase: shop.apiUrl };
  const other = await browser.newContext();
  try {
    const payer = await other.newPage();
    const paying = (async () => {
      await payer.goto(`${shop.url}/products/notebook`);
      await payer.getByTestId('buy').click();
      await fillCard(payer, { ...TEST_CARDS.visa3DS, email: 'grace@example.com' });
      await payer.getByTestId('pay').click();
      const result = await completeThreeDS(payer, 'authenticate');
      await expect(payer.getByTestId('receipt-status')).toHaveText('Paid');
      return result.chargeId;
    })();
    const expiring = (async () => {
      await flow.buyWith(TEST_CARDS.otp3DS);
      await expect(flow.page.frameLocator(THREE_DS_FRAME).locator('main')).toHaveAttribute('data-page', 'otp');
      const src = (await flow.page.locator(THREE_DS_FRAME).getAttribute('src')) ?? '';
      const chargeId = new URL(src).pathname.split('/').pop() ?? '';
      expect(await expireCharge(chargeId, options)).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED' });
      return chargeId;
    })();
    const [paid, expired] = await Promise.all([paying, expiring]);
    expect(await shop.api<Charge>(`/charges/${paid}`)).toMatchObject({ status: 'CHARGE_SUCCESS', threedSecure: { transStatus: 'Y' } });
    expect(await waitForEvent({ name: 'charge.expired', charge: expired, ...options })).toMatchObject({ data: { object: { id: expired } } });
    // The account's clock did not move.
    expect(await shop.api<{ offset: number }>('/test_helpers/clock')).toMatchObject({ offset: 0 });
  } finally {
    await other.close();
  }
});
