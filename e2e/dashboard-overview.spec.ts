import { TEST_CARDS } from '@payframe/qa-kit';
import type { ServerProcess } from '@payframe/server/process';
import { expect, test } from '@playwright/test';
import { auditAndShoot, type Credentials, signIn, startDemo } from './support/dashboard.ts';

// The home page and the request log as a merchant meets them: a real `payframe serve --demo`, a
// known set of charges made through the API with the demo keys, and Chromium. One server for the
// file; tests run in order.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

let server: ServerProcess;
let secretKey: string;
let demo: Credentials;
/** Sent by this file only, to look for in what the log shows. */
const PAN = TEST_CARDS.mastercardDebit.number;

type Overview = {
  created: number;
  succeeded: number;
  success_rate: number | null;
  volume: Array<{ currency: string; amount: number }>;
  refunds: { count: number; amount: Array<{ currency: string; amount: number }> };
  declines: Array<{ reason: string; count: number }>;
  threeds: Array<{ status: string; count: number }>;
};

test.beforeAll(async () => {
  ({ server, secretKey, demo } = await startDemo('payframe-dashboard-overview-e2e-'));
});
test.afterAll(() => server?.stop());

async function v2<T = Record<string, unknown>>(path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/v2${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-api-key': secretKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T, requestId: response.headers.get('request-id') ?? '' };
}

function tokenBody(number: string) {
  return {
    card: { number, cvc: '123', exp_month: 12, exp_year: new Date().getFullYear() + 3, name: 'Ada Lovelace' },
    shopper: { ip: '203.0.113.7', session_id: 'overview-e2e', email: 'ada@example.com' },
  };
}

/** token → charge; the charge's status code (402 for a declined card) and id. */
async function charge(number: string, amount: number, currency: string) {
  const token = await v2<{ id: string }>('/tokens', tokenBody(number));
  const made = await v2<{ id: string }>('/charges', {
    token: token.body.id,
    amount,
    currency,
    description: 'Overview e2e',
    return_url: 'https://shop.example/return',
  });
  return { status: made.status, id: made.body.id };
}

const amountOf = (list: Array<{ currency: string; amount: number }>, currency: string) => list.find((entry) => entry.currency === currency)?.amount ?? 0;
const countOf = <K extends string>(list: Array<Record<K, string> & { count: number }>, key: K, value: string) =>
  list.find((entry) => entry[key] === value)?.count ?? 0;

test('the home page shows what a known set of charges adds up to, as the API counts it', async ({ browser }) => {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(page, server.url, demo);
  const overviewOf = async (): Promise<Overview> => (await page.request.get(`${server.url}/dashboard/api/overview?mode=test&period=7d`)).json();
  const before = await overviewOf();

  const whole = await charge(TEST_CARDS.visa.number, 1000, 'EUR');
  expect((await v2(`/charges/capture/${whole.id}`, {})).status).toBe(200);
  const part = await charge(TEST_CARDS.visa.number, 2500, 'EUR');
  expect((await v2(`/charges/capture/${part.id}`, { amount: 1000 })).status).toBe(200);
  const refunded = await charge(TEST_CARDS.visa.number, 700, 'USD');
  expect((await v2(`/charges/capture/${refunded.id}`, {})).status).toBe(200);
  expect((await v2(`/charges/refund/${refunded.id}`, { amount: 200 })).status).toBe(200);
  await charge(TEST_CARDS.visa.number, 500, 'EUR');
  const secured = await charge(TEST_CARDS.visa3DS.number, 100, 'EUR');
  expect((await v2(`/test_helpers/charges/${secured.id}/authenticate`, { result: 'success' })).status).toBe(200);
  expect((await charge(TEST_CARDS.declined.number, 300, 'EUR')).status).toBe(402);

  const after = await overviewOf();
  expect(after.created - before.created).toBe(5);
  expect(after.succeeded - before.succeeded).toBe(3);
  expect(amountOf(after.volume, 'EUR') - amountOf(before.volume, 'EUR')).toBe(2000);
  expect(amountOf(after.volume, 'USD') - amountOf(before.volume, 'USD')).toBe(700);
  expect(after.refunds.count - before.refunds.count).toBe(1);
  expect(amountOf(after.refunds.amount, 'USD') - amountOf(before.refunds.amount, 'USD')).toBe(200);
  expect(countOf(after.declines, 'reason', 'GENERIC_DECLINE') - countOf(before.declines, 'reason', 'GENERIC_DECLINE')).toBe(1);
  expect(countOf(after.threeds, 'status', 'Y') - countOf(before.threeds, 'status', 'Y')).toBe(1);

  // The page shows the API's figures.
  await page.reload();
  await expect(page.getByTestId('overview-count')).toHaveText(String(after.succeeded));
  const shown = page.getByTestId('overview-volume').getByRole('listitem');
  await expect(shown).toHaveCount(after.volume.length);
  for (const [i, entry] of after.volume.entries()) await expect(shown.nth(i)).toHaveAttribute('data-amount', String(entry.amount));
  await expect(page.getByTestId('overview-volume')).toContainText('€20.00');
  await expect(page.getByTestId('overview-success-rate')).toHaveAttribute('data-rate', String(after.success_rate));
  await expect(page.getByTestId('overview-refunds')).toHaveAttribute('data-count', String(after.refunds.count));
  await expect(page.locator('[data-testid="overview-decline"][data-reason="GENERIC_DECLINE"] td')).toHaveText(
    String(countOf(after.declines, 'reason', 'GENERIC_DECLINE')),
  );
  await expect(page.locator('[data-testid="overview-threeds-row"][data-status="Y"] td')).toHaveText(String(countOf(after.threeds, 'status', 'Y')));
  await expect(page.getByTestId('overview-chart').getByRole('img')).toBeVisible();
  await page.getByTestId('overview-period').selectOption('30d');
  await expect(page.getByTestId('overview-chart').locator('rect')).toHaveCount(30);
  await auditAndShoot(page, 'home');
  await page.context().close();
});

test('a request is found in the log by its Request-Id, with its parameters and response, and no card number', async ({ browser }) => {
  const made = await v2<{ id: string }>('/tokens', tokenBody(PAN), { 'idempotency-key': 'overview-e2e-log-1' });
  expect(made.status).toBe(200);
  expect(made.requestId).toMatch(/^req_/);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(page, server.url, demo);
  await page.getByTestId('nav-logs').click();
  await expect(page).toHaveURL(/\/dashboard\/logs$/);
  await page.getByTestId('logs-path-filter').fill('/v2/tokens');
  await page.getByTestId('logs-path-filter').press('Enter');
  const row = page.locator(`[data-testid="log-row"][data-request-id="${made.requestId}"]`);
  await expect(row).toHaveAttribute('data-status', '200');
  await row.getByRole('button').click();
  const request = page.getByTestId('log-detail-request');
  await expect(request).toContainText('[redacted]');
  await expect(request).not.toContainText(PAN);
  await expect(page.getByTestId('log-detail-response')).toContainText(made.body.id);
  await expect(page.getByTestId('log-detail')).toContainText('overview-e2e-log-1');
  await auditAndShoot(page, 'logs');
  await page.context().close();
});
