import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completeThreeDS, TEST_CARDS, THREE_DS_FRAME } from '@payframe/qa-kit';
import type { AxeResults } from 'axe-core';
import { analyzeWithFrames } from './support/axe.ts';
import { expect, test } from './support/shop-checkout.ts';
import { type Charge, expectOutcome, numberOf, SCENARIOS, shot } from './support/three-ds-scenarios.ts';

// The 3-D Secure scenario cards in the demo shop's dialog (its default): each card end to end, a
// wrong code then the right one, approval from a second page (the "phone"), Esc, framing from
// another origin, axe inside the dialog, and screenshots of the dialog at 375 px and on a desktop.

test.describe('in the shop’s dialog', () => {
  for (const scenario of SCENARIOS) {
    test(`dialog-${scenario.card}: ${numberOf(scenario)} ends ${scenario.transStatus} in the dialog`, async ({ flow, shop }) => {
      const { page } = flow;
      await page.setViewportSize({ width: 1280, height: 800 });
      await flow.buyWith(TEST_CARDS[scenario.card]);
      const dialog = page.getByRole('dialog', { name: '3-D Secure authentication' });
      if (scenario.page !== 'frictionless') {
        // Frictionless answers before a shopper could look: its dialog closes by itself.
        await expect(dialog).toBeVisible();
        await expect(page.frameLocator(THREE_DS_FRAME).locator('main')).toHaveAttribute('data-page', scenario.page);
        await shot(page, `dialog-desktop-${scenario.page}`);
      }
      // A frictionless dialog may already have closed and the page gone on to the receipt: the kit still knows the outcome.
      const result = await completeThreeDS(page, scenario.action);
      expect(result.transStatus).toBe(scenario.transStatus);
      await expectOutcome(page, scenario);
      await expect(dialog).toHaveCount(0);
      expect((await shop.api<Charge>(`/charges/${result.chargeId}`)).threedSecure.transStatus).toBe(scenario.transStatus);
      expect(flow.consoleErrors).toEqual([]);
    });
  }

  test('otp-retry: a wrong code is refused in the dialog, then the right one pays', async ({ flow }) => {
    const { page } = flow;
    await flow.buyWith(TEST_CARDS.otp3DS);
    const frame = page.frameLocator(THREE_DS_FRAME);
    await expect(frame.getByTestId('otp-hint')).toHaveText('Test mode: the code is 123456.');
    await completeThreeDS(page, { otp: '000000' });
    await expect(frame.getByTestId('otp-error')).toHaveText('That code is not right. You have 2 tries left.');
    await expect(frame.getByTestId('otp')).toHaveAttribute('aria-invalid', 'true');
    await shot(page, 'dialog-desktop-otp-wrong-code');
    await completeThreeDS(page, { otp: '123456' });
    await expect(page.getByTestId('receipt-status')).toHaveText('Paid');
  });

  test('oob-phone: the bank-app card waits in the dialog until a second page approves on the device', async ({ flow, shop, context }) => {
    const { page } = flow;
    await flow.buyWith(TEST_CARDS.outOfBand3DS);
    const frame = page.frameLocator(THREE_DS_FRAME);
    await expect(frame.locator('h1')).toHaveText('Approve this payment in your banking app');
    // The shopper's phone: the device link the waiting page shows in test mode, opened as a second page.
    const href = (await frame.getByTestId('device-link').getAttribute('href')) ?? '';
    const src = (await page.locator(THREE_DS_FRAME).getAttribute('src')) ?? '';
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await phone.goto(new URL(href, src).toString());
    await expect(phone.locator('main')).toHaveAttribute('data-page', 'oob-device');
    await shot(phone, 'page-375-oob-device');
    await phone.locator('#approve').click();
    await expect(phone.locator('main')).toHaveAttribute('data-page', 'oob-device-done');
    await shot(phone, 'page-375-oob-device-done');
    // The waiting page refreshes itself and the dialog closes on its own.
    await expect(page.getByTestId('receipt-status')).toHaveText('Paid', { timeout: 15_000 });
    const chargeId = new URL(src).pathname.split('/').pop();
    expect(await shop.api<Charge>(`/charges/${chargeId}`)).toMatchObject({ status: 'CHARGE_SUCCESS', threedSecure: { transStatus: 'Y' } });
  });

  test('esc: Tab stays inside the dialog, Esc closes it, and the order stays awaiting authentication', async ({ flow, shop }) => {
    const { page } = flow;
    await flow.buyWith(TEST_CARDS.visa3DS);
    const dialog = page.getByRole('dialog', { name: '3-D Secure authentication' });
    await expect(dialog).toBeVisible();
    await expect(page.frameLocator(THREE_DS_FRAME).locator('#authenticate')).toBeVisible();
    const chargeId = new URL((await page.locator(THREE_DS_FRAME).getAttribute('src')) ?? '').pathname.split('/').pop();
    // Focus stays in the dialog: it starts on its close button.
    await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
    // The page behind is inert: Tab moves between the close button and the challenge only.
    for (let press = 0; press < 3; press++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.querySelector('dialog')?.contains(document.activeElement) ?? false)).toBe(true);
    }
    // Esc where the shopper is: inside the challenge (the Payframe page tells the shop's page).
    await page.frameLocator(THREE_DS_FRAME).locator('#authenticate').focus();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('payment-pending-message')).toContainText('still waiting for you to confirm');
    expect(await shop.api<Charge>(`/charges/${chargeId}`)).toMatchObject({ status: 'PENDING', threedSecure: { status: 'PENDING' } });
    await page.goto(`${shop.url}/orders`);
    await expect(page.locator(`[data-testid="order-row"][data-charge-id="${chargeId}"] [data-testid="order-status"]`)).toHaveText('Awaiting 3-D Secure');
  });

  test('axe: the dialog and the challenge inside it have no serious violations', async ({ flow }) => {
    test.setTimeout(120_000);
    const { page } = flow;
    for (const card of ['visa3DS', 'otp3DS', 'outOfBand3DS', 'rejected3DS', 'unavailable3DS'] as const) {
      await flow.buyWith(TEST_CARDS[card]);
      await expect(page.frameLocator(THREE_DS_FRAME).locator('main[data-page] h1')).toBeVisible();
      // The bank-app waiting page reloads itself every 2 s (a meta refresh, so it works without
      // JavaScript): it waits on the bank, holds no input, and stays on the same page.
      const rules = card === 'outOfBand3DS' ? ['meta-refresh'] : [];
      // The bank-app page may reload in the middle of an analysis, which then leaves the challenge
      // out: such an analysis is run again.
      let results: AxeResults | undefined;
      await expect(async () => {
        // On a loaded host, axe's source compiling cold in the challenge's renderer and the analysis
        // together can outlast one 2 s wait: start right after a reload, with the whole wait ahead.
        if (card === 'outOfBand3DS') {
          const reloaded = await page.waitForEvent('framenavigated', { predicate: (frame) => frame.name() === 'payframe-3ds', timeout: 5_000 });
          await reloaded.waitForLoadState('domcontentloaded');
        }
        results = await analyzeWithFrames(page, (builder) => builder.disableRules(rules));
        expect(
          results.passes.some((rule) => rule.nodes.some((node) => node.target.length > 1)),
          `axe looked inside the ${card} challenge`,
        ).toBe(true);
      }).toPass({ timeout: 30_000 });
      const serious = (results?.violations ?? []).filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
      expect(
        serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
        card,
      ).toEqual([]);
    }
  });

  test('phone: at 375 px the dialog fills the screen and each page fits without sideways scrolling', async ({ flow }) => {
    test.setTimeout(120_000);
    const { page } = flow;
    await page.setViewportSize({ width: 375, height: 740 });
    for (const card of ['visa3DS', 'otp3DS', 'outOfBand3DS', 'rejected3DS', 'unavailable3DS'] as const) {
      await flow.buyWith(TEST_CARDS[card]);
      const frame = page.frameLocator(THREE_DS_FRAME);
      await expect(frame.locator('main[data-page] h1')).toBeVisible();
      const box = await page.getByRole('dialog').boundingBox();
      expect(box?.width).toBe(375);
      const kind = await frame.locator('main').getAttribute('data-page');
      expect(await frame.locator('html').evaluate((html) => html.scrollWidth <= html.clientWidth)).toBe(true);
      await shot(page, `dialog-375-${kind}`);
    }
  });
});

test('framing: a page on another origin than the return URL cannot frame the challenge', async ({ flow, shop }) => {
  const { page } = flow;
  expect(shop.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
  await flow.buyWith(TEST_CARDS.visa3DS);
  const src = (await page.locator(THREE_DS_FRAME).getAttribute('src')) ?? '';
  expect(src).toMatch(/&display=iframe$/);
  await expect(page.frameLocator(THREE_DS_FRAME).locator('#authenticate')).toBeVisible();

  // Another site (localhost, while the shop is on 127.0.0.1) embeds the very same challenge.
  const other = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Elsewhere</title><iframe name="elsewhere" src="${src.replace(/&/g, '&amp;')}"></iframe>`);
  });
  other.listen(0, '127.0.0.1');
  await once(other, 'listening');
  try {
    const elsewhere = await flow.page.context().newPage();
    const refused = elsewhere.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
    await elsewhere.goto(`http://localhost:${(other.address() as AddressInfo).port}/`);
    await refused;
    await expect(elsewhere.frameLocator('iframe[name="elsewhere"]').locator('#authenticate')).toHaveCount(0);
    await elsewhere.close();
  } finally {
    other.close();
  }
});
