import { execFileSync } from 'node:child_process';
import { testCard } from '@payframe/contract/testing';
import { TEST_CARDS } from '@payframe/qa-kit';
import { PAYFRAME_BIN, type ServerProcess } from '@payframe/server/process';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { auditAndShoot, type Credentials, signIn, startDemo } from './support/dashboard.ts';

// The dashboard as a merchant meets it: a real `payframe serve --demo`, its demo user, charges made
// through the API with the demo keys, and Chromium. One server for the file; tests run in order.
// Each sign-in pays for a scrypt: on a loaded machine a test needs more than the default 30 s.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

let server: ServerProcess;
let dataDir: string;
let secretKey: string;
let demo: Credentials;
const VIEWER = { email: 'viewer@payframe.test', password: 'a viewer password' };

test.beforeAll(async () => {
  ({ server, dataDir, secretKey, demo } = await startDemo('payframe-dashboard-e2e-'));
  expect(server.output()).toContain(`${server.url}/dashboard  (sign in as ${demo.email}, password ${demo.password})`);
});
test.afterAll(() => server?.stop());

async function v2<T = any>(path: string, body?: unknown, key = secretKey): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}/v2${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function chargeThroughApi(txnReference: string, amount = 1250): Promise<string> {
  const token = await v2<{ id: string }>('/tokens', {
    card: testCard(TEST_CARDS.visa.number),
    shopper: { ip: '203.0.113.7', session_id: 'dash-e2e', email: 'ada@example.com' },
  });
  const charge = await v2<{ id: string }>('/charges', {
    token: token.body.id,
    amount,
    currency: 'EUR',
    description: `Order ${txnReference}`,
    txn_reference: txnReference,
    return_url: 'https://shop.example/return',
  });
  expect(charge.status).toBe(200);
  return charge.body.id;
}

/** Presses Tab until the element has the focus, as a keyboard user would reach it. */
async function tabTo(page: Page, testId: string): Promise<void> {
  for (let presses = 0; presses < 80; presses++) {
    if (await page.getByTestId(testId).evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${testId}`);
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  return context.newPage();
}

test('sign in (a wrong password first) and see the charges made through the API', async ({ browser }) => {
  const first = await chargeThroughApi('dash-order-1');
  const second = await chargeThroughApi('dash-order-2');
  const page = await newPage(browser);
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.text()} ${new URL(message.location().url).pathname}`);
  });
  await page.goto(`${server.url}/dashboard`);
  await expect(page).toHaveURL(/\/dashboard\/login$/);
  // Until the network is quiet: a browser asks for /favicon.ico after the page has loaded. The one
  // error is the app asking whether a session exists, which a visitor without one is told by a 401.
  await page.waitForLoadState('networkidle');
  expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 401 (Unauthorized) /dashboard/api/session']);
  await auditAndShoot(page, 'login');
  await page.getByTestId('login-email').fill(demo.email);
  await page.getByTestId('login-password').fill('not the password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-error')).toBeVisible();
  await page.getByTestId('login-password').fill(demo.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dashboard\/home$/);
  await page.getByTestId('nav-charges').click();
  await expect(page).toHaveURL(/\/dashboard\/charges$/);
  await expect(page.locator(`[data-testid="charge-row"][data-charge-id="${first}"]`)).toBeVisible();
  await expect(page.locator(`[data-testid="charge-row"][data-charge-id="${second}"]`)).toBeVisible();
  await auditAndShoot(page, 'charges');
  await page.context().close();
});

test('open a charge, capture it, and refund part of it by keyboard alone', async ({ browser }) => {
  const id = await chargeThroughApi('dash-order-refund', 1000);
  const page = await newPage(browser);
  await signIn(page, server.url, demo);
  await page.getByTestId('nav-charges').click();
  await page.locator(`[data-testid="charge-row"][data-charge-id="${id}"] a`).first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/charges/${id}$`));
  await tabTo(page, 'charge-capture');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('charge-refund')).toBeVisible();
  await tabTo(page, 'charge-refund');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('refund-amount')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('2.50');
  await tabTo(page, 'refund-confirm');
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-testid="timeline-item"][data-event-name="charge.refunded"]')).toBeVisible();
  expect((await v2(`/charges/${id}`)).body.amount_refunded).toBe(250);
  await auditAndShoot(page, 'charge');
  await page.context().close();
});

test('search by a txn_reference that looks like an id or a last 4, and by a charge id, each listed as a charge-row', async ({ browser }) => {
  const idLike = await chargeThroughApi('C20261123');
  const digits = await chargeThroughApi('7310');
  const other = await chargeThroughApi('dash-order-search');
  const page = await newPage(browser);
  await signIn(page, server.url, demo);
  await page.getByTestId('nav-charges').click();
  for (const [typed, id] of [
    ['C20261123', idLike],
    ['7310', digits],
    [other, other],
  ] as const) {
    await page.getByTestId('charges-search').fill(typed);
    await page.getByTestId('charges-search').press('Enter');
    await expect(page.getByTestId('charge-row')).toHaveCount(1);
    await expect(page.getByTestId('charge-row')).toHaveAttribute('data-charge-id', id);
  }
  await expect(page).toHaveURL(/\/dashboard\/charges$/);
  await page.getByTestId('charge-row').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/charges/${other}$`));
  await page.context().close();
});

test('a refund above what remains shows the API’s refusal, and a pending charge is refunded whole', async ({ browser }) => {
  const captured = await chargeThroughApi('dash-order-too-much', 1000);
  expect((await v2(`/charges/capture/${captured}`, {})).status).toBe(200);
  const pending = await chargeThroughApi('dash-order-release', 1250);
  const page = await newPage(browser);
  await signIn(page, server.url, demo);
  await page.goto(`${server.url}/dashboard/charges/${captured}`);
  await page.getByTestId('charge-refund').click();
  await page.getByTestId('refund-amount').fill('10.01');
  await page.getByTestId('refund-confirm').click();
  await expect(page.getByTestId('action-error')).toContainText('AMOUNT_EXCEEDS_REMAINING');
  expect((await v2(`/charges/${captured}`)).body.amount_refunded).toBe(0);

  await page.goto(`${server.url}/dashboard/charges/${pending}`);
  await expect(page.getByTestId('charge-detail-status')).toHaveText('Pending');
  await page.getByTestId('charge-refund').click();
  await expect(page.getByTestId('refund-amount')).toHaveValue('12.50');
  await page.getByTestId('refund-confirm').click();
  await expect(page.getByTestId('charge-detail-status')).toHaveText('Refunded');
  expect((await v2(`/charges/${pending}`)).body).toMatchObject({ status: 'REFUNDED', amount_refunded: 1250 });
  await page.context().close();
});

test('create a key, see its secret once, use it, revoke it and see the API refuse it', async ({ browser }) => {
  const page = await newPage(browser);
  await signIn(page, server.url, demo);
  await page.getByTestId('nav-keys').click();
  await page.getByTestId('key-create').click();
  const secret = (await page.getByTestId('key-secret-once').textContent())?.match(/sk_test_[\w-]+/)?.[0] ?? '';
  expect(secret).toMatch(/^sk_test_/);
  expect((await v2('/charges', undefined, secret)).status).toBe(200);
  await auditAndShoot(page, 'keys');
  const row = page.locator('[data-testid="key-row"]', { hasText: `…${secret.slice(-4)}` });
  await row.getByTestId('key-revoke').click();
  await page.getByTestId('key-revoke-confirm').click();
  await expect.poll(async () => (await v2('/charges', undefined, secret)).status).toBe(401);
  await page.context().close();
});

test('move the test clock, and visit the events, webhooks and settings pages', async ({ browser }) => {
  const page = await newPage(browser);
  await signIn(page, server.url, demo);
  await page.getByRole('link', { name: 'Test clock' }).click();
  const before = Date.parse((await page.getByTestId('clock-now').getAttribute('datetime')) ?? '');
  await page.getByTestId('clock-advance-days').fill('1');
  await page.getByTestId('clock-advance').click();
  await expect.poll(async () => Date.parse((await page.getByTestId('clock-now').getAttribute('datetime')) ?? '') - before).toBeGreaterThanOrEqual(86_400_000);
  await auditAndShoot(page, 'clock');
  for (const [nav, name] of [
    ['nav-events', 'events'],
    ['nav-webhooks', 'webhooks'],
    ['nav-settings', 'settings'],
  ] as const) {
    await page.getByTestId(nav).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/${name}$`));
    await expect(page.locator('h1')).toBeFocused();
    await auditAndShoot(page, name);
  }
  await page.context().close();
});

test('a viewer sees no mutation controls', async ({ browser }) => {
  const created = execFileSync(
    process.execPath,
    [PAYFRAME_BIN, 'users', 'create', '--account', 'demo', '--email', VIEWER.email, '--role', 'viewer', '--password-stdin', '--data-dir', dataDir],
    { input: `${VIEWER.password}\n` },
  );
  expect(created.toString()).toContain(VIEWER.email);
  const id = await chargeThroughApi('dash-order-viewer');
  const page = await newPage(browser);
  await signIn(page, server.url, VIEWER);
  await page.goto(`${server.url}/dashboard/charges/${id}`);
  await expect(page.getByTestId('charge-detail-status')).toBeVisible();
  for (const control of ['charge-capture', 'charge-cancel', 'charge-refund']) await expect(page.getByTestId(control)).toHaveCount(0);
  await page.getByTestId('nav-keys').click();
  await expect(page.getByTestId('key-row').first()).toBeVisible();
  for (const control of ['key-create', 'key-revoke']) await expect(page.getByTestId(control)).toHaveCount(0);
  await page.context().close();
});

test('a session that has ended sends the merchant back to the sign-in page with the message', async ({ browser }) => {
  const page = await newPage(browser);
  await signIn(page, server.url, demo);
  // The home page's one request has answered: a request still in flight when the cookie goes would
  // meet the 401 first and leave the sign-in page in place of the link clicked below.
  await expect(page.getByTestId('overview-count')).toBeVisible();
  // The server forgets the session when the cookie is gone, as when it expires: the next request is a 401.
  await page.context().clearCookies();
  await page.getByTestId('nav-keys').click();
  await expect(page.getByRole('status')).toHaveText('Your session has expired, please sign in again');
  await expect(page.getByTestId('login-email')).toBeVisible();
  await page.context().close();
});
