import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, TEST_PANS } from './client.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

const SEVEN_DAYS = 7 * 24 * 60 * 60;
const RETURN_URL = 'https://shop.example/return?order=7&note=a%20b';

let server: InProcessTestServer;
let api: Client;
/** Its own account, so that moving its test clock cannot touch the other tests' charges. */
let clockApi: Client;

beforeAll(async () => {
  server = await startInProcess();
  const [keys, clockKeys] = await Promise.all([createKeys(server.dataDir, 'Librairie <Étoile>'), createKeys(server.dataDir, 'threeds-clock')]);
  api = client(server, keys!.secretKey);
  clockApi = client(server, clockKeys!.secretKey);
});
afterAll(() => server?.stop());

type Page = { status: number; headers: Headers; body: string };

/** The shopper's browser: no API key, no redirects followed. */
async function browse(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Page> {
  const response = await server.fetch(url, {
    method: init.method ?? (init.form ? 'POST' : 'GET'),
    redirect: 'manual',
    headers: { 'accept-language': 'en', ...init.headers },
    body: init.form ? new URLSearchParams(init.form) : null,
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** What the page's form sends when the shopper presses a button. */
function answer(redirect: string, result: 'success' | 'failure' | string, headers?: Record<string, string>): Promise<Page> {
  const url = new URL(redirect);
  const paRes = url.searchParams.get('paRes') ?? '';
  return browse(url.toString(), { form: { paRes, result }, ...(headers ? { headers } : {}) });
}

function pageKind(page: Page): string | undefined {
  return /data-page="([\w-]+)"/.exec(page.body)?.[1];
}

function textOf(page: Page, testId: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]*data-testid="${testId}"[^>]*>([\\s\\S]*?)</\\1>`).exec(page.body);
  return match?.[2]
    ?.replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&amp;/g, '&')
    .replace(/[\u00a0\u202f]/g, ' ');
}

/** How a URL appears inside an HTML attribute. */
function html(url: string): string {
  return url.replaceAll('&', '&amp;');
}

function withPaRes(redirect: string, paRes: string | null): string {
  const url = new URL(redirect);
  if (paRes === null) url.searchParams.delete('paRes');
  else url.searchParams.set('paRes', paRes);
  return url.toString();
}

async function threeDSStatus(charge: { id: string }, account = api): Promise<{ status: string; threeds: string }> {
  const { body } = await account.get(`/v2/charges/${charge.id}`);
  return { status: body.status, threeds: body.threedSecure.status };
}

function expectPageHeaders(page: Page, returnOrigin?: string): void {
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('access-control-allow-origin')).toBeNull();
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  if (returnOrigin) expect(csp).toContain(`form-action 'self' ${returnOrigin}`);
}

describe('GET the hosted page', () => {
  it('shows the challenge: merchant, amount, card, description, test mode, both buttons; with strict headers', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds, { amount: '123456', currency: 'eur', description: 'Order #7', return_url: RETURN_URL });
    expect(charge.threedSecure.redirect).toMatch(new RegExp(`^${server.url}/3d-secure/${charge.id}\\?paRes=[\\w-]{43}$`));
    const page = await browse(charge.threedSecure.redirect);
    expect(page.status).toBe(200);
    expectPageHeaders(page, 'https://shop.example');
    expect(page.headers.get('content-language')).toBe('en');
    expect(pageKind(page)).toBe('challenge');
    expect(page.body).toMatch(/^<!DOCTYPE html><html lang="en"/);
    expect(textOf(page, 'merchant')).toBe('Librairie <Étoile>');
    expect(textOf(page, 'amount')).toBe('€1,234.56');
    expect(textOf(page, 'card')).toBe('Visa ending in •••• 3220');
    expect(textOf(page, 'description')).toBe('Order #7');
    expect(textOf(page, 'test-mode')).toMatch(/^Test mode/);
    expect(page.body).toMatch(/<button type="submit" id="authenticate"[^>]*>Complete authentication<\/button>/);
    expect(page.body).toMatch(/<button type="submit" id="fail"[^>]*>Fail authentication<\/button>/);
    expect(page.body).not.toContain('<script');
  });

  it('never spends the link: viewing twice leaves 3-D Secure PENDING', async () => {
    const charge = await createCharge(api, TEST_PANS.mastercard3ds);
    expect((await browse(charge.threedSecure.redirect)).status).toBe(200);
    expect((await browse(charge.threedSecure.redirect)).status).toBe(200);
    expect(await threeDSStatus(charge)).toEqual({ status: 'PENDING', threeds: 'PENDING' });
  });

  it('formats in the shopper’s language and the currency’s minor units', async () => {
    const yen = await createCharge(api, TEST_PANS.visaFr3ds, { amount: '1500', currency: 'jpy' });
    const fr = await browse(yen.threedSecure.redirect, { headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' } });
    expect(fr.body).toMatch(/^<!DOCTYPE html><html lang="fr"/);
    expect(fr.headers.get('content-language')).toBe('fr');
    expect(textOf(fr, 'amount')).toBe('1 500 JPY');
    expect(fr.body).toContain('Terminer l’authentification');
    const dinar = await createCharge(api, TEST_PANS.maestro3ds, { amount: '1234', currency: 'bhd' });
    expect(textOf(await browse(dinar.threedSecure.redirect, { headers: { 'accept-language': 'de' } }), 'amount')).toBe('1,234 BHD');
    expect(textOf(await browse(dinar.threedSecure.redirect), 'card')).toBe('Maestro ending in •••• 8450');
  });

  it('formats the amount in the shopper’s own locale where the page does not speak its language', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds, { amount: '12345678', currency: 'eur' });
    const dutch = await browse(charge.threedSecure.redirect, { headers: { 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' } });
    expect(dutch.body).toMatch(/^<!DOCTYPE html><html lang="en"/);
    expect(textOf(dutch, 'amount')).toContain('123.456,78');
    expect(textOf(await browse(charge.threedSecure.redirect, { headers: { 'accept-language': 'en-US' } }), 'amount')).toContain('123,456.78');
  });

  it.each([
    ['*', '*'],
    ['garbage', 'garbage;;;q=oops'],
    ['Latin-1 bytes', '\u00ff\u00fe'],
    ['4000 characters', 'x'.repeat(4000)],
    ['empty', ''],
  ])('answers Accept-Language %s in English', async (_name, header) => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const page = await browse(charge.threedSecure.redirect, { headers: { 'accept-language': header } });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/^<!DOCTYPE html><html lang="en"/);
    expect(page.body).toContain('Complete authentication');
  });

  it('escapes the merchant’s description', async () => {
    const description = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const charge = await createCharge(api, TEST_PANS.visa3ds, { description });
    const page = await browse(charge.threedSecure.redirect);
    expect(page.body).not.toMatch(/<script|<img/);
    expect(textOf(page, 'description')).toBe(description);
  });

  it('answers HEAD like GET without a body', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const head = await browse(charge.threedSecure.redirect, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expectPageHeaders(head);
    expect(await threeDSStatus(charge)).toEqual({ status: 'PENDING', threeds: 'PENDING' });
  });
});

describe('POST an outcome', () => {
  it('authenticate → 303 to the return URL with charge_id and status; the charge is CHARGEABLE and captures', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds, { return_url: RETURN_URL });
    const response = await answer(charge.threedSecure.redirect, 'success');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${RETURN_URL}&charge_id=${charge.id}&status=CHARGEABLE`);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await threeDSStatus(charge)).toEqual({ status: 'PENDING', threeds: 'CHARGEABLE' });
    const captured = await api.post(`/v2/charges/capture/${charge.id}`);
    expect(captured.status).toBe(200);
    expect(captured.body.status).toBe('CHARGE_SUCCESS');
  });

  it('fail → 303 with status FAILED; the charge is FAILED and capture is refused', async () => {
    const charge = await createCharge(api, TEST_PANS.mastercard3ds, { return_url: 'https://shop.example/done#top' });
    const response = await answer(charge.threedSecure.redirect, 'failure');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`https://shop.example/done?charge_id=${charge.id}&status=FAILED#top`);
    expect(await threeDSStatus(charge)).toEqual({ status: 'PENDING', threeds: 'FAILED' });
    const capture = await api.post(`/v2/charges/capture/${charge.id}`);
    expect(capture.body.error.code).toBe('AUTHENTICATION_FAILED');
  });

  it('also takes the paRes from the link’s own query string', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const response = await browse(charge.threedSecure.redirect, { form: { result: 'success' } });
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get('location') ?? '').searchParams.get('status')).toBe('CHARGEABLE');
  });

  it('spends the link: a second POST shows "already completed" (no redirect), and so does a later GET', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds, { return_url: RETURN_URL });
    expect((await answer(charge.threedSecure.redirect, 'success')).status).toBe(303);

    const again = await answer(charge.threedSecure.redirect, 'failure');
    expect(again.status).toBe(409);
    expect(again.headers.get('location')).toBeNull();
    expectPageHeaders(again);
    expect(pageKind(again)).toBe('completed');
    expect(again.body).toContain('Authentication already completed');
    expect(again.body).toContain(`href="${html(RETURN_URL)}&amp;charge_id=${charge.id}&amp;status=CHARGEABLE"`);
    expect(await threeDSStatus(charge)).toEqual({ status: 'PENDING', threeds: 'CHARGEABLE' });

    const view = await browse(charge.threedSecure.redirect);
    expect(view.status).toBe(200);
    expect(pageKind(view)).toBe('completed');
    expect(view.body).not.toContain('id="authenticate"');
  });

  it('records exactly one of concurrent answers', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const results = await Promise.all(Array.from({ length: 6 }, (_, index) => answer(charge.threedSecure.redirect, index % 2 ? 'failure' : 'success')));
    const redirects = results.filter((page) => page.status === 303);
    expect(redirects).toHaveLength(1);
    expect(results.filter((page) => page.status === 409)).toHaveLength(5);
    const status = new URL(redirects[0]!.headers.get('location') ?? '').searchParams.get('status');
    expect((await threeDSStatus(charge)).threeds).toBe(status);
  });

  it('shows the page again (400) when the answer is neither success nor failure, and changes nothing', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    for (const result of ['maybe', '']) {
      const page = await answer(charge.threedSecure.redirect, result);
      expect(page.status).toBe(400);
      expect(pageKind(page)).toBe('challenge');
    }
    expect((await threeDSStatus(charge)).threeds).toBe('PENDING');
  });

  it('answers other encodings and oversized bodies with a page, not the API’s JSON', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const json = await server.fetch(charge.threedSecure.redirect, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ result: 'success' }),
    });
    expect(json.status).toBe(415);
    expect(json.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await json.text()).toContain('data-page="error"');
    const big = await answer(charge.threedSecure.redirect, 'success'.padEnd(10_000, 'x'));
    expect(big.status).toBe(413);
    expect(pageKind(big)).toBe('error');
    expect((await threeDSStatus(charge)).threeds).toBe('PENDING');
  });
});

describe('links that cannot be used', () => {
  it('wrong, missing or another charge’s paRes → 404 page, for GET and POST, and nothing changes', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const other = await createCharge(api, TEST_PANS.visa3ds);
    const otherPaRes = new URL(other.threedSecure.redirect).searchParams.get('paRes');
    const paRes = new URL(charge.threedSecure.redirect).searchParams.get('paRes') ?? '';
    for (const bad of ['wrong', '', null, otherPaRes, `${paRes}x`, paRes.slice(0, -1)]) {
      const url = withPaRes(charge.threedSecure.redirect, bad);
      const view = await browse(url);
      expect(view.status, String(bad)).toBe(404);
      expect(pageKind(view)).toBe('not-found');
      expectPageHeaders(view);
      const post = await browse(url, { form: { paRes: bad ?? '', result: 'success' } });
      expect(post.status).toBe(404);
      expect(post.headers.get('location')).toBeNull();
    }
    expect((await threeDSStatus(charge)).threeds).toBe('PENDING');
  });

  it('unknown charge → the same 404 page; so does any other path under /3d-secure', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const paRes = new URL(charge.threedSecure.redirect).searchParams.get('paRes') ?? '';
    for (const path of [`/3d-secure/C0000000000000000?paRes=${paRes}`, '/3d-secure', '/3d-secure/', `/3d-secure/${charge.id}/more`]) {
      const page = await browse(`${server.url}${path}`);
      expect(page.status, path).toBe(404);
      expect(pageKind(page)).toBe('not-found');
    }
  });

  it('expired after the test clock passes seven days → "no longer available" (410), and POST changes nothing', async () => {
    const charge = await createCharge(clockApi, TEST_PANS.visa3ds, { return_url: RETURN_URL });
    const advanced = await clockApi.post('/v2/test_helpers/clock', { advance_seconds: String(SEVEN_DAYS) });
    expect(advanced.status).toBe(200);
    const page = await browse(charge.threedSecure.redirect);
    expect(page.status).toBe(410);
    expectPageHeaders(page);
    expect(pageKind(page)).toBe('unavailable');
    expect(page.body).toContain('This payment is no longer available');
    expect(page.body).toContain(`href="${html(RETURN_URL)}&amp;charge_id=${charge.id}&amp;status=NOT_AVAILABLE"`);
    const post = await answer(charge.threedSecure.redirect, 'success');
    expect(post.status).toBe(410);
    expect(pageKind(post)).toBe('unavailable');
    const after = await clockApi.get(`/v2/charges/${charge.id}`);
    expect(after.body).toMatchObject({ status: 'REFUNDED', reason: 'EXPIRED', threedSecure: { status: 'NOT_AVAILABLE' } });
  });

  it.each([
    ['captured', (id: string) => api.post(`/v2/charges/capture/${id}`)],
    ['canceled', (id: string) => api.post(`/v2/charges/cancel/${id}`)],
    ['refunded', (id: string) => api.post(`/v2/charges/refund/${id}`)],
  ])('%s charge → "no longer available"', async (_name, end) => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    expect((await answer(charge.threedSecure.redirect, 'success')).status).toBe(303);
    const ended = await end(charge.id);
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    const page = await browse(charge.threedSecure.redirect);
    expect(page.status).toBe(410);
    expect(pageKind(page)).toBe('unavailable');
  });

  it('frictionless card (NOT_AVAILABLE): "no authentication needed" with a link back; POST changes nothing', async () => {
    const charge = await createCharge(api, TEST_PANS.visa, { return_url: RETURN_URL });
    expect(charge.threedSecure.status).toBe('NOT_AVAILABLE');
    const page = await browse(charge.threedSecure.redirect, { headers: { 'accept-language': 'es' } });
    expect(page.status).toBe(200);
    expect(pageKind(page)).toBe('not-needed');
    expect(page.body).toContain('No se necesita autenticación');
    expect(page.body).toContain(`href="${html(RETURN_URL)}&amp;charge_id=${charge.id}&amp;status=NOT_AVAILABLE"`);
    expect(page.body).not.toContain('<form');
    const post = await answer(charge.threedSecure.redirect, 'success');
    expect(post.status).toBe(409);
    expect(pageKind(post)).toBe('not-needed');
    expect(await threeDSStatus(charge)).toEqual({ status: 'PENDING', threeds: 'NOT_AVAILABLE' });
  });
});

describe('methods', () => {
  it('PUT, PATCH and DELETE → 405 page with Allow; OPTIONS → 204 with Allow; nothing changes', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const response = await server.fetch(charge.threedSecure.redirect, { method, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('data-page="error"');
    }
    const options = await server.fetch(charge.threedSecure.redirect, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST');
    expect((await threeDSStatus(charge)).threeds).toBe('PENDING');
  });

  it('the test helper still settles 3-D Secure, and the page then shows it completed', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const settled = await api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result: 'failure' });
    expect(settled.body.threedSecure.status).toBe('FAILED');
    const page = await browse(charge.threedSecure.redirect);
    expect(pageKind(page)).toBe('completed');
    expect(page.body).toContain('Authentication failed for this payment.');
  });
});
