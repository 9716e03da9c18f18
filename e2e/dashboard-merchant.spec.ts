import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TEST_CARDS } from '@payframe/qa-kit';
import type { ServerProcess } from '@payframe/server/process';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { parse as parseCsv } from 'csv-parse/sync';
import { auditAndShoot, type Credentials, signIn, startDemo } from './support/dashboard.ts';

// The dashboard as a merchant runs the business from it: money typed in the browser's locale, the
// charges CSV against the API's own list, and a webhook endpoint disabled from the page. One
// `payframe serve --demo` for the file; the two tests run in order on it.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

let server: ServerProcess;
let secretKey: string;
let demo: Credentials;

test.beforeAll(async () => {
  ({ server, secretKey, demo } = await startDemo('payframe-dashboard-merchant-e2e-'));
});
test.afterAll(() => server?.stop());

type Json = Record<string, unknown>;

async function v2(path: string, body?: unknown): Promise<{ status: number; body: Json & { data?: Json[]; has_more?: boolean } }> {
  const response = await fetch(`${server.url}/v2${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': secretKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function capturedCharge(amount: number, currency: string, description: string): Promise<string> {
  const token = await v2('/tokens', {
    card: { number: TEST_CARDS.visa.number, cvc: '123', exp_month: 12, exp_year: new Date().getFullYear() + 3, name: 'Ada Lovelace' },
    shopper: { ip: '203.0.113.7', session_id: 'merchant-e2e', email: 'Ada@Example.com' },
  });
  const charge = await v2('/charges', { token: token.body.id, amount, currency, description, return_url: 'https://shop.example/return' });
  expect(charge.status).toBe(200);
  const id = String(charge.body.id);
  expect((await v2(`/charges/capture/${id}`, {})).status).toBe(200);
  return id;
}

async function signedIn(browser: Browser, locale: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale, acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, server.url, demo);
  return page;
}

async function refund(page: Page, chargeId: string, typed: string): Promise<void> {
  await page.goto(`${server.url}/dashboard/charges/${chargeId}`);
  await page.getByTestId('charge-refund').click();
  await page.getByTestId('refund-amount').fill(typed);
  await page.getByTestId('refund-confirm').click();
}

test('money in en-US, the CSV export against the API, a disabled endpoint that receives nothing', async ({ browser }) => {
  const kwd = await capturedCharge(2_000_000, 'KWD', 'Gold watch');
  const page = await signedIn(browser, 'en-US');

  // 1,000 on a KWD 2,000.000 charge is KWD 1,000.000.
  await refund(page, kwd, '1,000');
  await expect(page.locator('[data-testid="timeline-item"][data-event-name="charge.refunded"]')).toBeVisible();
  expect((await v2(`/charges/${kwd}`)).body.amount_refunded).toBe(1_000_000);
  await page.getByTestId('charge-refund').click();
  await page.getByTestId('refund-amount').fill('1.0005');
  await page.getByTestId('refund-confirm').click();
  await expect(page.getByTestId('action-error')).toContainText('KWD has at most 3 decimals');
  await expect(page.getByTestId('charge-metadata')).toBeVisible();
  await auditAndShoot(page, 'charge-money');

  // The export holds exactly the API's list, each amount in major units.
  await page.getByTestId('nav-charges').click();
  await expect(page.getByTestId('charge-email').first()).toHaveText('Ada@Example.com');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('charges-export').click()]);
  // Read as RFC 4180 by a parser of its own, not by the server's writer: CRLF between records, every row as wide as the header.
  const rows = parseCsv(readFileSync((await download.path()) ?? '', 'utf8'), { record_delimiter: '\r\n' });
  const [header, ...lines] = rows;
  const listed = (await v2('/charges?limit=100')).body.data ?? [];
  expect(lines.map((line) => line[0])).toEqual(listed.map((charge) => charge.id));
  const column = (name: string) => header?.indexOf(name) ?? -1;
  const exported = lines.find((line) => line[0] === kwd) ?? [];
  expect(exported[column('amount')]).toBe('2000.000');
  expect(exported[column('amount_refunded')]).toBe('1000.000');
  expect(exported[column('email')]).toBe('Ada@Example.com');
  expect(exported[column('created')]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  await auditAndShoot(page, 'charges-filters');

  // Two endpoints take charge.created; the one disabled from the page gets no delivery.
  const heard: Record<string, string[]> = { quiet: [], loud: [] };
  const receivers: Server[] = [];
  const urls: Record<string, string> = {};
  for (const name of ['quiet', 'loud'] as const) {
    const receiver = createServer((request, response) => {
      heard[name]?.push(String(request.headers['webhook-id']));
      response.end('ok');
    }).listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    receivers.push(receiver);
    urls[name] = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  }
  try {
    await page.getByTestId('nav-webhooks').click();
    await page.getByTestId('webhook-url').fill(urls.quiet ?? '');
    await page.getByTestId('webhook-description').fill('Must stay quiet');
    for (const box of await page.getByTestId('webhook-events').getByRole('checkbox').all()) {
      if ((await box.getAttribute('value')) !== 'charge.created') await box.uncheck();
    }
    await page.getByTestId('webhook-add').click();
    await expect(page.getByTestId('webhook-secret-once')).toBeVisible();
    const row = page.getByTestId('webhook-row').filter({ hasText: urls.quiet ?? '' });
    await row.getByTestId('webhook-toggle').click();
    await expect(row).toHaveAttribute('data-disabled', 'true');
    const quiet = String(await row.getAttribute('data-endpoint-id'));
    expect((await v2(`/webhook_endpoints/${quiet}`)).body).toMatchObject({ disabled: true, events: ['charge.created'], description: 'Must stay quiet' });
    const loud = (await v2('/webhook_endpoints', { url: urls.loud, events: ['charge.created'] })).body.id;

    const charge = await capturedCharge(500, 'EUR', 'After the switch');
    const created = (await v2(`/events?charge=${charge}&name=charge.created`)).body.data?.[0]?.id;
    await expect.poll(() => heard.loud).toContain(created);
    const deliveries = (await v2(`/events/${created}/deliveries`)).body.data ?? [];
    expect(deliveries.map((delivery) => delivery.endpoint)).toEqual([loud]);
    expect(heard.quiet).toEqual([]);

    await page.reload();
    await page
      .getByTestId('webhook-row')
      .filter({ hasText: urls.loud ?? '' })
      .click();
    await expect(page.getByTestId('webhook-detail')).toContainText(urls.loud ?? '');
    await expect(page.getByTestId('delivery-row').first()).toContainText(urls.loud ?? '');
    await auditAndShoot(page, 'webhooks-detail');
  } finally {
    for (const receiver of receivers) receiver.close();
  }

  // The event's whole JSON, found by its name.
  await page.getByTestId('nav-events').click();
  await page.getByTestId('events-name-filter').selectOption('charge.refunded');
  await expect(page.getByTestId('event-row').first()).toHaveAttribute('data-event-name', 'charge.refunded');
  await page.getByTestId('event-row').first().getByRole('button').click();
  expect(JSON.parse((await page.getByTestId('event-json').textContent()) ?? '')).toMatchObject({ name: 'charge.refunded', data: { object: { id: kwd } } });
  await auditAndShoot(page, 'events-json');

  // Users and the password form.
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('users-invite-email').fill('accountant@shop.test');
  await page.getByTestId('users-invite-role').selectOption('viewer');
  await page.getByTestId('users-invite-submit').click();
  await expect(page.getByTestId('users-password')).toHaveText(/.{12,}/);
  await expect(page.locator('[data-testid="users-row"][data-email="accountant@shop.test"]')).toBeVisible();
  await auditAndShoot(page, 'settings-users');

  // The test clock ahead: a banner on every page.
  await page.getByRole('link', { name: 'Test clock' }).click();
  await page.getByTestId('clock-advance-days').fill('2');
  await page.getByTestId('clock-advance').click();
  await expect(page.getByTestId('clock-banner')).toContainText('2 d');
  await page.getByTestId('nav-charges').click();
  await expect(page.getByTestId('clock-banner')).toBeVisible();
  await auditAndShoot(page, 'clock-banner');
  await page.context().close();
});

test('money in de-DE: 1.000,5 is EUR 1,000.50, and a dot as a decimal point is refused', async ({ browser }) => {
  const eur = await capturedCharge(150_000, 'EUR', 'Sofa');
  const page = await signedIn(browser, 'de-DE');
  await page.goto(`${server.url}/dashboard/charges/${eur}`);
  await page.getByTestId('charge-refund').click();
  await expect(page.getByTestId('refund-amount')).toHaveValue('1.500,00');
  await page.getByTestId('refund-amount').fill('2.50');
  await page.getByTestId('refund-confirm').click();
  await expect(page.getByTestId('action-error')).toContainText('ambiguous');
  expect((await v2(`/charges/${eur}`)).body.amount_refunded).toBe(0);
  await page.getByTestId('refund-amount').fill('1.000,5');
  await page.getByTestId('refund-confirm').click();
  await expect(page.locator('[data-testid="timeline-item"][data-event-name="charge.refunded"]')).toBeVisible();
  expect((await v2(`/charges/${eur}`)).body.amount_refunded).toBe(100_050);
  await auditAndShoot(page, 'charge-money-de');
  await page.context().close();
});
