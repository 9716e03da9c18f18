import { mkdirSync } from 'node:fs';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import type { TokenResult } from '@payframe/widget/types';
import { analyzeWithFrames } from './support/axe.ts';
import { type Checkout, expect, test } from './support/checkout.ts';
import { advanceClock, createAccount } from './support/payframe-server.ts';

const PAN = TEST_CARDS.visa.number;
const CVC = '737';
const SCREENSHOTS = new URL('../test-results/widget/', import.meta.url);
mkdirSync(SCREENSHOTS, { recursive: true });

async function screenshot(checkout: Checkout, name: string): Promise<void> {
  await checkout.page.locator('#card').screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname });
}

async function typeCard(checkout: Checkout, card: { number: string; expiry: string; cvc: string; name: string }) {
  await checkout.field('card-number').pressSequentially(card.number);
  await checkout.field('card-expiry').pressSequentially(card.expiry);
  await checkout.field('card-cvc').pressSequentially(card.cvc);
  await checkout.field('card-name').fill(card.name);
}

/** Mounts a second card in the same page (the frame's files now cached), times mount() to `ready`, and destroys it. */
function mountAgain(checkout: Checkout): Promise<number> {
  return checkout.page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const { publishableKey } = JSON.parse(document.getElementById('config')?.textContent ?? '{}') as { publishableKey: string };
        const host = document.body.appendChild(document.createElement('div'));
        const started = performance.now();
        const card = window.Payframe(publishableKey).mount(host);
        const timeout = setTimeout(() => reject(new Error('the second mount sent no ready event within 5 s')), 5_000);
        card.on('ready', () => {
          const elapsed = performance.now() - started;
          clearTimeout(timeout);
          card.destroy();
          host.remove();
          resolve(elapsed);
        });
      }),
  );
}

const futureYear = String((new Date().getFullYear() + 2) % 100).padStart(2, '0');

test('a shopper types a card and the merchant gets a token, never the number', async ({ checkout, sites }) => {
  await checkout.open();
  const coldMs = await checkout.page.evaluate(() => window.readyAfterMs);
  const warmMs = await mountAgain(checkout);
  test.info().annotations.push({ type: 'mount() → ready', description: `cold ${coldMs.toFixed(0)} ms, warm ${warmMs.toFixed(0)} ms` });
  // The target is 150 ms (npm run bench:widget). The first mount fetches the frame page and
  // took about 1 s at p95 on a loaded machine, so it only has to stay within 3 s; a second mount,
  // with it cached, has 1 s, which still catches a frame that got slow to start.
  expect(coldMs).toBeLessThan(3_000);
  expect(warmMs).toBeLessThan(1_000);
  await expect(checkout.page.locator('iframe[name="payframe-card"]')).toHaveAttribute('title', 'Secure card payment form');
  await screenshot(checkout, 'default');

  await checkout.field('card-number').pressSequentially(PAN);
  await expect(checkout.field('card-number')).toHaveValue('4242 4242 4242 4242');
  await expect(checkout.field('card-brand')).toHaveAttribute('data-brand', 'VISA');
  // The number moved the shopper on to the expiry, which moves on to the security code.
  await expect(checkout.field('card-expiry')).toBeFocused();
  await checkout.field('card-expiry').pressSequentially(`12${futureYear}`);
  await expect(checkout.field('card-expiry')).toHaveValue(`12 / ${futureYear}`);
  await expect(checkout.field('card-cvc')).toBeFocused();
  await checkout.field('card-cvc').pressSequentially(CVC);
  await checkout.field('card-name').fill('Ada Lovelace');

  const result = await checkout.pay();
  if (!('token' in result)) throw new Error(`expected a token: ${JSON.stringify(result)}`);
  expect(result.token).toMatchObject({ type: 'token', mode: 'test', card: { last4Digits: '4242', brand: 'VISA', name: 'Ada Lovelace' } });
  await expect(checkout.page.locator('#result')).toHaveText(`Paid with token ${result.token.id}`);

  const events = await checkout.page.evaluate(() => window.cardEvents);
  expect(events.map((event) => event.name)).toEqual(expect.arrayContaining(['ready', 'focus', 'change', 'blur', 'complete']));
  expect(events.filter((event) => event.name === 'complete')).toHaveLength(1);

  // What the merchant's side saw: its DOM, its events, every message its window and port received, its server.
  const pageHtml = await checkout.page.content();
  const received = await checkout.page.evaluate(() => window.receivedMessages);
  expect(received.some((message) => message.includes(result.token.id))).toBe(true);
  for (const [what, text] of [
    ['the page DOM', pageHtml],
    ['the card events', JSON.stringify(events)],
    ['the messages', received.join('\n')],
    ['the merchant server', JSON.stringify(sites.merchant.requests)],
  ] as const) {
    expect(text, what).not.toContain(PAN);
    expect(text, what).not.toContain('4242 4242 4242 4242');
    // The security code only ever travels as the API body's "cvc" field, from the frame to Payframe.
    expect(text, what).not.toContain('"cvc"');
    expect(text, what).not.toContain(`"${CVC}"`);
  }
  expect(sites.payframe.output()).not.toContain(PAN);
  expect(checkout.consoleErrors).toEqual([]);
});

test('an invalid number and a past expiry show errors at the field, and createToken resolves with the error', async ({ checkout }) => {
  await checkout.open();
  await checkout.field('card-number').pressSequentially('4242424242424241');
  await checkout.field('card-number').press('Tab');
  await expect(checkout.frame.getByTestId('card-number-error')).toHaveText('Your card number is invalid.');
  await expect(checkout.field('card-number')).toHaveAttribute('aria-invalid', 'true');
  await expect(checkout.field('card-number')).toHaveAttribute('aria-describedby', 'card-number-error');

  await checkout.field('card-expiry').pressSequentially('0120');
  await expect(checkout.frame.getByTestId('card-expiry-error')).toHaveText('Your card’s expiry date is in the past.');

  const result = await checkout.pay();
  expect(result).toMatchObject({ error: { type: 'card_error', error: { code: 'INCORRECT_NUMBER', parameter: 'card.number' } } });
  await expect(checkout.page.locator('#result')).toHaveText('Refused: INCORRECT_NUMBER');
  await expect(checkout.frame.getByTestId('card-cvc-error')).toHaveText('This field is required.');
  await expect(checkout.frame.getByTestId('live-region')).toHaveText('Your card number is invalid.');
  const events = await checkout.page.evaluate(() => window.cardEvents);
  expect(events.find((event) => event.name === 'error')).toBeTruthy();
  await screenshot(checkout, 'error');
});

test('a card form that never loads: after the error event, createToken resolves with it, for calls made before and after', async ({ checkout, sites }) => {
  const { page } = checkout;
  // Nothing answers for the frame page, as when Payframe's host is down; the loader itself was served.
  await page.route('**/v2/widget/frame.html*', (route) => route.abort('connectionrefused'));
  sites.merchant.configure({ publishableKey: sites.payframe.keys.publishableKey, email: 'ada@example.com', options: {} });
  // The loader gives up after 10 s of the page's time: the page's clock is moved on, not waited out.
  await page.clock.install();
  await page.goto(`${sites.merchant.url}/checkout`);
  const settled = page.evaluate(async () => {
    const before = window.card.createToken({ shopper: { email: 'ada@example.com' } });
    const errorEvent = await new Promise((resolve) => window.card.on('error', resolve));
    return { errorEvent, before: await before, after: await window.card.createToken({ shopper: { email: 'ada@example.com' } }) };
  });
  await page.clock.runFor(9_000);
  expect(await page.evaluate(() => window.cardEvents.some((event) => event.name === 'error'))).toBe(false);
  await page.clock.runFor(1_000);
  const outcome = await settled;
  const error = {
    type: 'api_error',
    message: 'The Payframe card form did not load.',
    error: { code: 'SERVICE_UNAVAILABLE', message: 'The Payframe card form did not load.' },
  };
  expect(outcome).toEqual({ errorEvent: { error }, before: { error }, after: { error } });
});

test('what the frame refuses itself, it refuses with the type, code and parameter the API answers for the same card', async ({ checkout, sites }) => {
  await checkout.open();
  const outcome = (result: TokenResult) =>
    'error' in result ? { type: result.error.type, code: result.error.error.code, parameter: result.error.error.parameter } : 'token';
  const cards = [
    { number: '424242', expiry: `12${futureYear}`, cvc: CVC },
    { number: '4242424242424241', expiry: `12${futureYear}`, cvc: CVC },
    { number: PAN, expiry: '12', cvc: CVC },
    { number: PAN, expiry: '13', cvc: CVC },
    { number: PAN, expiry: '1299', cvc: CVC },
    { number: PAN, expiry: `12${futureYear}`, cvc: '73' },
    { number: '378282246310005', expiry: `12${futureYear}`, cvc: '123' },
  ];
  for (const card of cards) {
    await checkout.page.evaluate(() => window.card.clear());
    await checkout.field('card-number').pressSequentially(card.number);
    await checkout.field('card-expiry').pressSequentially(card.expiry);
    await checkout.field('card-cvc').pressSequentially(card.cvc);
    await checkout.field('card-name').fill('Ada Lovelace');
    const fromFrame = await checkout.page.evaluate(() => window.card.createToken({ shopper: { email: 'ada@example.com' } }));
    // The body the frame sends for these fields (tokens/token-body.ts), straight to the API.
    const response = await fetch(`${sites.payframe.url}/v2/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': sites.payframe.keys.publishableKey },
      body: JSON.stringify({
        card: { number: card.number, cvc: card.cvc, exp_month: card.expiry.slice(0, 2), exp_year: `20${card.expiry.slice(2, 4)}`, name: 'Ada Lovelace' },
        shopper: { email: 'ada@example.com', session_id: 'parity' },
      }),
    });
    const fromApi = (response.ok ? { token: await response.json() } : { error: await response.json() }) as TokenResult;
    expect(outcome(fromFrame), JSON.stringify(card)).toEqual(outcome(fromApi));
  }
});

test('a token the API refuses shows its error in the frame and reaches the merchant as the API’s error body', async ({ checkout, sites }) => {
  // The server judges expiry by the account's test clock, four years ahead: the browser's check passes, the API's does not.
  // An account of its own (per run: --repeat-each runs it again beside itself): no other test lives on its moved clock.
  const keys = await createAccount(sites.payframe.dataDir, `shop-in-the-future-${test.info().testId}-${test.info().repeatEachIndex}`);
  await advanceClock(sites.payframe, keys, 4 * 366 * 24 * 3600);
  await checkout.open({}, keys);
  await typeCard(checkout, { number: TEST_CARDS.mastercard3DS.number, expiry: `12${futureYear}`, cvc: CVC, name: 'Ada Lovelace' });

  const result = await checkout.pay();
  expect(result).toEqual({
    error: {
      type: 'card_error',
      message: 'The card has expired.',
      error: { code: 'EXPIRED_CARD', message: 'The card has expired.', parameter: 'card.exp_year' },
    },
  });
  await expect(checkout.frame.getByTestId('card-expiry-error')).toHaveText('Your card has expired.');
  await expect(checkout.field('card-expiry')).toBeFocused();
});

test('the whole form can be completed with the keyboard alone', async ({ checkout }) => {
  await checkout.open();
  const { page } = checkout;
  await page.locator('#coupon').focus();
  await page.keyboard.press('Tab');
  await expect(checkout.field('card-number')).toBeFocused();
  // A visible focus ring on every field.
  expect(await checkout.field('card-number').evaluate((input) => getComputedStyle(input).outlineStyle)).toBe('solid');
  await page.keyboard.type(PAN);
  await expect(checkout.field('card-expiry')).toBeFocused();
  await page.keyboard.type(`12${futureYear}`);
  await expect(checkout.field('card-cvc')).toBeFocused();
  await page.keyboard.type(CVC);
  await page.keyboard.press('Tab');
  await expect(checkout.field('card-name')).toBeFocused();
  await page.keyboard.type('Ada Lovelace');
  await page.keyboard.press('Tab');
  await expect(page.locator('#pay')).toBeFocused();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.tokenResult !== undefined);
  const result = await page.evaluate(() => window.tokenResult);
  expect(result && 'token' in result && result.token.card.last4Digits).toBe('4242');
});

test('no serious or critical accessibility violation inside the frame, before and after errors', async ({ checkout }) => {
  await checkout.open({ fields: { email: true, address: 'full' } });
  for (const state of ['default', 'errors']) {
    if (state === 'errors') {
      await checkout.pay();
      await expect(checkout.frame.getByTestId('card-number-error')).toBeVisible();
    }
    const results = await analyzeWithFrames(checkout.page);
    // Nodes inside the iframe are targeted through it: a target of more than one selector.
    expect(
      results.passes.some((rule) => rule.nodes.some((node) => node.target.length > 1)),
      'axe looked inside the frame',
    ).toBe(true);
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(
      serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
      state,
    ).toEqual([]);
  }
});

test('the merchant’s style applies within the allow-list, and text never goes below 16px', async ({ checkout }) => {
  await checkout.open({
    locale: 'fr',
    style: {
      base: { color: '#1d2b53', fontFamily: 'Georgia, serif', fontSize: '13px', letterSpacing: '0.5px' },
      focus: { color: '#0b3d91' },
      invalid: { color: '#9b1c1c' },
      placeholder: { color: '#5a5a5a', fontStyle: 'italic' },
    },
  });
  const number = checkout.field('card-number');
  await expect(number).toHaveAttribute('aria-label', 'Numéro de carte');
  const style = await number.evaluate((input) => {
    const computed = getComputedStyle(input);
    return { color: computed.color, fontSize: computed.fontSize, fontFamily: computed.fontFamily };
  });
  expect(style).toEqual({ color: 'rgb(29, 43, 83)', fontSize: '16px', fontFamily: 'Georgia, serif' });
  await checkout.field('card-expiry').pressSequentially('0120');
  await expect(checkout.field('card-expiry')).toHaveCSS('color', 'rgb(155, 28, 28)');
  await screenshot(checkout, 'styled');
  // update() is checked on the merchant's page before anything reaches the frame.
  const refused = await checkout.page.evaluate(() => {
    try {
      window.card.update({ style: { base: { color: 'url(https://evil.example/)' } } });
      return 'accepted';
    } catch (error) {
      return String(error);
    }
  });
  expect(refused).toContain('without url()');
  expect(checkout.consoleErrors).toEqual([]);
});
