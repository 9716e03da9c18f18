import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, TEST_PANS } from './client.ts';
import { queryStore } from './database.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

/** The 3-D Secure scenario cards (docs/three-d-secure.md), driven as a shopper's browser would, over real HTTP. */

const RETURN_URL = 'https://shop.example/return?order=9';

let server: InProcessTestServer;
let api: Client;

beforeAll(async () => {
  server = await startInProcess();
  api = client(server, (await createKeys(server.dataDir, 'Scenario Shop')).secretKey);
});
afterAll(() => server?.stop());

type Page = { status: number; headers: Headers; body: string; location: string | null };

async function browse(url: string, form?: Record<string, string>): Promise<Page> {
  const response = await server.fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: { 'accept-language': 'en' },
    body: form ? new URLSearchParams(form) : null,
  });
  return { status: response.status, headers: response.headers, body: await response.text(), location: response.headers.get('location') };
}

/** What a page's form sends: the link's paRes plus the pressed button's fields, posted to the page's own URL. */
function submit(pageUrl: string, fields: Record<string, string>): Promise<Page> {
  return browse(pageUrl, { paRes: new URL(pageUrl).searchParams.get('paRes') ?? '', ...fields });
}

function deviceUrl(redirect: string): string {
  const url = new URL(redirect);
  url.pathname += '/device';
  return url.toString();
}

function inIframe(redirect: string): string {
  return `${redirect}&display=iframe`;
}

function pageKind(page: Page): string | undefined {
  return /<main[^>]*data-page="([\w-]+)"/.exec(page.body)?.[1];
}

function textOf(page: Page, testId: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]*data-testid="${testId}"[^>]*>([\\s\\S]*?)</\\1>`).exec(page.body);
  return match?.[2]?.replace(/<[^>]*>/g, '');
}

async function threeDS(id: string): Promise<{ status: string; transStatus: string | null }> {
  const { body } = await api.get(`/v2/charges/${id}`);
  return { status: body.threedSecure.status, transStatus: body.threedSecure.transStatus };
}

async function eventNames(chargeId: string): Promise<string[]> {
  const rows = await queryStore(server.dataDir, 'select name from events where charge_id = ? order by seq', [chargeId]);
  return rows.map((row) => String(row.name));
}

function expectReturn(page: Page, chargeId: string, status: string): void {
  expect(page.status).toBe(303);
  expect(page.location).toBe(`${RETURN_URL}&charge_id=${chargeId}&status=${status}`);
}

describe('one-time code (4000000000003063)', () => {
  it('shows the code form with the test code, counts wrong codes, and takes the right one', async () => {
    const charge = await createCharge(api, TEST_PANS.otp3ds, { return_url: RETURN_URL });
    const page = await browse(charge.threedSecure.redirect);
    expect(page.status).toBe(200);
    expect(pageKind(page)).toBe('otp');
    expect(page.body).toMatch(/<input[^>]*id="otp"[^>]*data-testid="otp"/);
    expect(page.body).toMatch(/id="otp-submit"/);
    expect(page.body).toMatch(/id="otp-resend"/);
    expect(textOf(page, 'otp-hint')).toBe('Test mode: the code is 123456.');
    expect(textOf(page, 'otp-error')).toBeUndefined();

    const wrong = await submit(charge.threedSecure.redirect, { action: 'verify', otp: '000000' });
    expect(wrong.status).toBe(200);
    expect(pageKind(wrong)).toBe('otp');
    expect(textOf(wrong, 'otp-error')).toBe('That code is not right. You have 2 tries left.');
    expect(await threeDS(charge.id)).toEqual({ status: 'PENDING', transStatus: null });

    const right = await submit(charge.threedSecure.redirect, { action: 'verify', otp: '123456' });
    expectReturn(right, charge.id, 'CHARGEABLE');
    expect(await threeDS(charge.id)).toEqual({ status: 'CHARGEABLE', transStatus: 'Y' });
    expect(await eventNames(charge.id)).toEqual(['charge.created', 'charge.authentication_succeeded']);

    // The link is spent: another code changes nothing.
    const again = await submit(charge.threedSecure.redirect, { action: 'verify', otp: '123456' });
    expect(again.status).toBe(409);
    expect(pageKind(again)).toBe('completed');
    expect(await eventNames(charge.id)).toHaveLength(2);
  });

  it('fails at the third wrong code; a resend sends the page again without resetting the count', async () => {
    const charge = await createCharge(api, TEST_PANS.otp3ds, { return_url: RETURN_URL });
    expect(textOf(await submit(charge.threedSecure.redirect, { action: 'verify', otp: '111111' }), 'otp-error')).toMatch(/2 tries left/);
    expect(textOf(await submit(charge.threedSecure.redirect, { action: 'verify', otp: '222222' }), 'otp-error')).toMatch(/1 try left/);
    const resent = await submit(charge.threedSecure.redirect, { action: 'resend', otp: '' });
    expect(resent.status).toBe(200);
    expect(textOf(resent, 'otp-resent')).toBe('A new code has been sent.');
    expect(textOf(resent, 'otp-error')).toBeUndefined();
    const empty = await submit(charge.threedSecure.redirect, { action: 'verify', otp: '' });
    expect(textOf(empty, 'otp-error')).toBe('Enter the code you received.');
    expect(await threeDS(charge.id)).toEqual({ status: 'PENDING', transStatus: null });

    const third = await submit(charge.threedSecure.redirect, { action: 'verify', otp: '333333' });
    expectReturn(third, charge.id, 'FAILED');
    expect(await threeDS(charge.id)).toEqual({ status: 'FAILED', transStatus: 'N' });
    expect(await eventNames(charge.id)).toEqual(['charge.created', 'charge.authentication_failed']);
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).body.error.code).toBe('AUTHENTICATION_FAILED');
  });

  it("refuses other pages' answers with 400 and the page as it stands; its own form's empty code is asked again", async () => {
    const charge = await createCharge(api, TEST_PANS.otp3ds, { return_url: RETURN_URL });
    const forms: Record<string, string>[] = [{ result: 'success' }, { action: 'continue' }, { action: 'verify' }, { result: 'success', otp: '' }];
    for (const form of forms) {
      const refused = await submit(charge.threedSecure.redirect, form);
      expect(refused.status, JSON.stringify(form)).toBe(400);
      expect(pageKind(refused)).toBe('otp');
      expect(textOf(refused, 'otp-error')).toBeUndefined();
    }
    expect(await threeDS(charge.id)).toEqual({ status: 'PENDING', transStatus: null });

    const empty = await submit(charge.threedSecure.redirect, { otp: '', action: 'verify' });
    expect(empty.status).toBe(200);
    expect(textOf(empty, 'otp-error')).toBe('Enter the code you received.');
    const resent = await submit(charge.threedSecure.redirect, { action: 'resend' });
    expect(resent.status).toBe(200);
    expect(textOf(resent, 'otp-resent')).toBe('A new code has been sent.');
    expectReturn(await submit(charge.threedSecure.redirect, { otp: '123456', action: 'verify' }), charge.id, 'CHARGEABLE');
  });

  it('counts concurrent wrong codes each once: of six, three are counted and the rest find 3-D Secure settled', async () => {
    const charge = await createCharge(api, TEST_PANS.otp3ds, { return_url: RETURN_URL });
    const pages = await Promise.all(Array.from({ length: 6 }, () => submit(charge.threedSecure.redirect, { action: 'verify', otp: '999999' })));
    const statuses = pages.map((page) => page.status).sort();
    expect(statuses).toEqual([200, 200, 303, 409, 409, 409]);
    expect(await threeDS(charge.id)).toEqual({ status: 'FAILED', transStatus: 'N' });
    expect(await eventNames(charge.id)).toEqual(['charge.created', 'charge.authentication_failed']);
  });

  it('lets exactly one of concurrent right codes win', async () => {
    const charge = await createCharge(api, TEST_PANS.otp3ds, { return_url: RETURN_URL });
    const pages = await Promise.all(Array.from({ length: 5 }, () => submit(charge.threedSecure.redirect, { action: 'verify', otp: '123456' })));
    expect(pages.filter((page) => page.status === 303)).toHaveLength(1);
    expect(pages.filter((page) => page.status === 409)).toHaveLength(4);
    expect(await eventNames(charge.id)).toEqual(['charge.created', 'charge.authentication_succeeded']);
  });
});

describe('approval in the banking app (4000000000003097)', () => {
  it('waits, refreshing itself, until the device page approves; the next view goes back to the shop', async () => {
    const charge = await createCharge(api, TEST_PANS.outOfBand3ds, { return_url: RETURN_URL });
    const waiting = await browse(charge.threedSecure.redirect);
    expect(waiting.status).toBe(200);
    expect(pageKind(waiting)).toBe('oob-waiting');
    expect(waiting.body).toContain('Approve this payment in your banking app');
    expect(waiting.body).toContain('<meta http-equiv="refresh" content="2"/>');
    expect(waiting.body).not.toContain('<script');
    // The waiting page takes no answer itself.
    expect((await submit(charge.threedSecure.redirect, { result: 'success' })).status).toBe(400);
    expect(await threeDS(charge.id)).toEqual({ status: 'PENDING', transStatus: null });

    const device = await browse(deviceUrl(charge.threedSecure.redirect));
    expect(device.status).toBe(200);
    expect(pageKind(device)).toBe('oob-device');
    expect(device.body).toMatch(/id="approve"/);
    expect(device.body).toMatch(/id="deny"/);
    const approved = await submit(deviceUrl(charge.threedSecure.redirect), { result: 'success' });
    expect(approved.status).toBe(200);
    expect(pageKind(approved)).toBe('oob-device-done');
    expect(await threeDS(charge.id)).toEqual({ status: 'CHARGEABLE', transStatus: 'Y' });
    expect(await eventNames(charge.id)).toEqual(['charge.created', 'charge.authentication_succeeded']);

    expectReturn(await browse(charge.threedSecure.redirect), charge.id, 'CHARGEABLE');
    // The shopper has been sent on: the link is spent, and shows so instead of redirecting again.
    for (let view = 0; view < 2; view += 1) {
      const spent = await browse(charge.threedSecure.redirect);
      expect(spent.status).toBe(200);
      expect(pageKind(spent)).toBe('completed');
    }
    const framed = await browse(inIframe(charge.threedSecure.redirect));
    expect(framed.status).toBe(200);
    expect(pageKind(framed)).toBe('complete');
    expect(pageKind(await browse(inIframe(charge.threedSecure.redirect)))).toBe('complete');

    const twice = await submit(deviceUrl(charge.threedSecure.redirect), { result: 'failure' });
    expect(twice.status).toBe(409);
    expect(await threeDS(charge.id)).toEqual({ status: 'CHARGEABLE', transStatus: 'Y' });
  });

  it('still goes back to the shop when the merchant captured between the approval and the next refresh', async () => {
    const charge = await createCharge(api, TEST_PANS.outOfBand3ds, { return_url: RETURN_URL });
    await submit(deviceUrl(charge.threedSecure.redirect), { result: 'success' });
    // The merchant's webhook handler captures on charge.authentication_succeeded before the waiting page refreshes.
    expect((await api.post(`/v2/charges/capture/${charge.id}`, {})).status).toBe(200);
    // A HEAD (a link checker, a prefetch) sees the way back without taking the shopper's one trip.
    const head = await server.fetch(charge.threedSecure.redirect, { method: 'HEAD', redirect: 'manual' });
    expect(head.status).toBe(303);
    expectReturn(await browse(charge.threedSecure.redirect), charge.id, 'CAPTURED');
    const spent = await browse(charge.threedSecure.redirect);
    expect(spent.status).toBe(410);
    expect(pageKind(spent)).toBe('unavailable');
  });

  it('sends the shopper on once of concurrent refreshes: exactly one 303, the others show the spent link', async () => {
    const charge = await createCharge(api, TEST_PANS.outOfBand3ds, { return_url: RETURN_URL });
    await submit(deviceUrl(charge.threedSecure.redirect), { result: 'success' });
    const pages = await Promise.all(Array.from({ length: 6 }, () => browse(charge.threedSecure.redirect)));
    const [sentOn, ...others] = [...pages].sort((a, b) => b.status - a.status);
    expectReturn(sentOn!, charge.id, 'CHARGEABLE');
    expect(others.map((page) => [page.status, pageKind(page)])).toEqual(Array.from({ length: 5 }, () => [200, 'completed']));
  });

  it('fails when the device page declines', async () => {
    const charge = await createCharge(api, TEST_PANS.outOfBand3ds, { return_url: RETURN_URL });
    expect((await submit(deviceUrl(charge.threedSecure.redirect), { result: 'failure' })).status).toBe(200);
    expect(await threeDS(charge.id)).toEqual({ status: 'FAILED', transStatus: 'N' });
    expectReturn(await browse(charge.threedSecure.redirect), charge.id, 'FAILED');
    expect(pageKind(await browse(charge.threedSecure.redirect))).toBe('completed');
  });

  it('has no device page for other cards, nor for a wrong paRes', async () => {
    const challenge = await createCharge(api, TEST_PANS.visa3ds, { return_url: RETURN_URL });
    expect((await browse(deviceUrl(challenge.threedSecure.redirect))).status).toBe(404);
    const charge = await createCharge(api, TEST_PANS.outOfBand3ds, { return_url: RETURN_URL });
    const forged = deviceUrl(charge.threedSecure.redirect).replace(/paRes=[^&]+/, 'paRes=forged');
    expect((await browse(forged)).status).toBe(404);
    expect((await browse(forged, { paRes: 'forged', result: 'success' })).status).toBe(404);
    expect(await threeDS(charge.id)).toEqual({ status: 'PENDING', transStatus: null });
  });
});

describe.each([
  ['frictionless', TEST_PANS.frictionless3ds, 'frictionless', 'CHARGEABLE', 'Y', 'charge.authentication_succeeded', 200],
  ['rejected', TEST_PANS.rejected3ds, 'rejected', 'FAILED', 'R', 'charge.authentication_failed', 402],
  ['unavailable', TEST_PANS.unavailable3ds, 'auth-unavailable', 'NOT_AVAILABLE', 'U', 'charge.authentication_unavailable', 200],
] as const)('%s (%s)', (_name, pan, kind, status, transStatus, event, captureStatus) => {
  it(`shows the ${kind} page; #continue settles ${transStatus} exactly once`, async () => {
    const charge = await createCharge(api, pan, { return_url: RETURN_URL });
    const page = await browse(charge.threedSecure.redirect);
    expect(page.status).toBe(200);
    expect(pageKind(page)).toBe(kind);
    expect(page.body).toMatch(/<button type="submit" id="continue"/);
    expect(await threeDS(charge.id)).toEqual({ status: 'PENDING', transStatus: null });
    // Only the page's own answer counts.
    expect((await submit(charge.threedSecure.redirect, { result: 'failure' })).status).toBe(400);

    const pages = await Promise.all(Array.from({ length: 4 }, () => submit(charge.threedSecure.redirect, { action: 'continue' })));
    const [winner, ...losers] = [...pages].sort((a, b) => a.status - b.status);
    expectReturn(winner!, charge.id, status);
    expect(losers.map((loser) => loser.status)).toEqual([409, 409, 409]);
    expect(await threeDS(charge.id)).toEqual({ status, transStatus });
    expect(await eventNames(charge.id)).toEqual(['charge.created', event]);
    expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(captureStatus);
  });
});

describe('the frictionless page continues by itself', () => {
  it('loads its one script from Payframe, allowed by its CSP; the script submits the form', async () => {
    const charge = await createCharge(api, TEST_PANS.frictionless3ds, { return_url: RETURN_URL });
    const page = await browse(charge.threedSecure.redirect);
    expect(page.body).toContain('Checking with your bank…');
    expect(page.body).toMatch(/<form method="post" class="actions" data-auto-submit(="")?>/);
    const src = /<script src="([^"]+)" defer/.exec(page.body)?.[1];
    expect(src).toMatch(/^assets\/page-[0-9a-f]{12}\.js$/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const script = await server.fetch(new URL(src!, charge.threedSecure.redirect));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('form[data-auto-submit]');
  });

  it('other pages run no script at all', async () => {
    for (const pan of [TEST_PANS.visa3ds, TEST_PANS.otp3ds, TEST_PANS.rejected3ds]) {
      const page = await browse((await createCharge(api, pan)).threedSecure.redirect);
      expect(page.body).not.toContain('<script');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'none'");
    }
  });
});

describe('display=iframe: the in-page challenge', () => {
  it("may be framed by the return URL's origin only, and answers the completion page instead of the 303", async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds, { return_url: RETURN_URL });
    const framed = await browse(inIframe(charge.threedSecure.redirect));
    expect(framed.status).toBe(200);
    expect(pageKind(framed)).toBe('challenge');
    expect(framed.headers.get('x-frame-options')).toBeNull();
    const csp = framed.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/(^|; )frame-ancestors https:\/\/shop\.example(;|$)/);

    // Its one script (allowed from Payframe only) tells the merchant's page about Esc in the frame.
    expect(csp).toContain("script-src 'self'");
    expect(framed.body).toContain(`<body data-charge-id="${charge.id}" data-target-origin="https://shop.example">`);
    expect(framed.body).toMatch(/<script src="assets\/page-[0-9a-f]{12}\.js" defer/);

    const plain = await browse(charge.threedSecure.redirect);
    expect(plain.headers.get('x-frame-options')).toBe('DENY');
    expect(plain.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const done = await submit(inIframe(charge.threedSecure.redirect), { result: 'success' });
    expect(done.status).toBe(200);
    expect(pageKind(done)).toBe('complete');
    expect(done.headers.get('x-frame-options')).toBeNull();
    expect(done.headers.get('content-security-policy')).toMatch(/frame-ancestors https:\/\/shop\.example(;|$)/);
    expect(done.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(done.body).toMatch(
      new RegExp(`id="completion"[^>]*data-charge-id="${charge.id}" data-status="CHARGEABLE" data-trans-status="Y" data-target-origin="https://shop.example"`),
    );
    expect(done.body).toMatch(/<script src="assets\/page-[0-9a-f]{12}\.js" defer/);
    expect(await threeDS(charge.id)).toEqual({ status: 'CHARGEABLE', transStatus: 'Y' });
  });

  it('answers the completion page, with the 3-D Secure status, for a link with nothing left to authenticate', async () => {
    const spent = await createCharge(api, TEST_PANS.visa3ds, { return_url: RETURN_URL });
    await submit(inIframe(spent.threedSecure.redirect), { result: 'failure' });
    const notNeeded = await createCharge(api, TEST_PANS.visa, { return_url: RETURN_URL });
    const captured = await createCharge(api, TEST_PANS.visa, { return_url: RETURN_URL });
    expect((await api.post(`/v2/charges/capture/${captured.id}`)).status).toBe(200);
    // The issuer's answer too, as the charge has it: none for a card that needed no authentication.
    for (const [charge, status, transStatus] of [
      [spent, 'FAILED', ' data-trans-status="N"'],
      [notNeeded, 'NOT_AVAILABLE', ''],
      [captured, 'CAPTURED', ''],
    ] as const) {
      const page = await browse(inIframe(charge.threedSecure.redirect));
      expect(page.status).toBe(200);
      expect(pageKind(page)).toBe('complete');
      expect(page.body).toMatch(
        new RegExp(`id="completion"[^>]*data-charge-id="${charge.id}" data-status="${status}"${transStatus} data-target-origin="https://shop.example"`),
      );
      expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors https:\/\/shop\.example(;|$)/);
      // In the browser's own window the same links keep their pages.
      expect(pageKind(await browse(charge.threedSecure.redirect))).not.toBe('complete');
    }
  });

  it('keeps an unknown link unframeable', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds, { return_url: RETURN_URL });
    const forged = inIframe(charge.threedSecure.redirect.replace(/paRes=[^&]+/, 'paRes=forged'));
    const page = await browse(forged);
    expect(page.status).toBe(404);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('the test helper plays each scenario', () => {
  it.each([
    [TEST_PANS.visa3ds, 'success', 'CHARGEABLE', 'Y'],
    [TEST_PANS.otp3ds, 'success', 'CHARGEABLE', 'Y'],
    [TEST_PANS.outOfBand3ds, 'success', 'CHARGEABLE', 'Y'],
    [TEST_PANS.frictionless3ds, 'success', 'CHARGEABLE', 'Y'],
    [TEST_PANS.rejected3ds, 'success', 'FAILED', 'R'],
    [TEST_PANS.unavailable3ds, 'success', 'NOT_AVAILABLE', 'U'],
    [TEST_PANS.otp3ds, 'failure', 'FAILED', 'N'],
    [TEST_PANS.unavailable3ds, 'failure', 'FAILED', 'N'],
    [TEST_PANS.rejected3ds, 'failure', 'FAILED', 'N'],
  ])('%s with result=%s → %s, transStatus %s', async (pan, result, status, transStatus) => {
    const charge = await createCharge(api, pan);
    const settled = await api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result });
    expect(settled.status).toBe(200);
    expect(settled.body.threedSecure).toMatchObject({ status, transStatus });
    expect((await api.post(`/v2/test_helpers/charges/${charge.id}/authenticate`, { result })).body.error.code).toBe('AUTHENTICATION_NOT_PENDING');
  });

  it('leaves transStatus null for cards that need no 3-D Secure', async () => {
    const charge = await createCharge(api, TEST_PANS.visa);
    expect(charge.threedSecure).toMatchObject({ status: 'NOT_AVAILABLE', transStatus: null });
  });
});
