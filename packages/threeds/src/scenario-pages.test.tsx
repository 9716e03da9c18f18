import { LOCALES } from '@payframe/contract/locales';
import { THREEDS_CLOSE, THREEDS_COMPLETE } from '@payframe/contract/three-ds-protocol';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './csp.ts';
import { messagesFor } from './i18n/messages.ts';
import type { PageModel, PaymentSummary } from './model.ts';
import { PAGE_SCRIPT, PAGE_SCRIPT_PATH } from './page-script.ts';
import { renderPage, usesScript } from './render.tsx';

const payment: PaymentSummary = {
  merchantName: 'Acme Books',
  amount: 4200,
  currency: 'EUR',
  brand: 'VISA',
  last4: '3063',
  description: 'Order #2',
  mode: 'test',
};
const paRes = 'pa_res-value';
const returnLink = 'https://shop.example/return?order=2&charge_id=C1&status=CHARGEABLE';

const PAGES: Record<string, PageModel> = {
  otp: { kind: 'otp', payment, paRes, notice: 'none', triesLeft: 3, testCode: '123456' },
  'oob-waiting': { kind: 'oob-waiting', payment, deviceLink: 'C1/device?paRes=pa_res-value' },
  'oob-device': { kind: 'oob-device', payment, paRes },
  'oob-device-done': { kind: 'oob-device-done', payment, approved: true },
  frictionless: { kind: 'frictionless', payment, paRes },
  rejected: { kind: 'rejected', payment, paRes },
  'auth-unavailable': { kind: 'auth-unavailable', payment, paRes },
  complete: { kind: 'complete', payment, chargeId: 'C1', status: 'CHARGEABLE', transStatus: 'Y', targetOrigin: 'https://shop.example', returnLink },
};

function textOf(html: string, selector: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]*(?:data-testid|id)="${selector}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match?.[2]?.replace(/<[^>]*>/g, '').replace(/&amp;/g, '&');
}

function h1(html: string): string | undefined {
  return /<h1>([\s\S]*?)<\/h1>/.exec(html)?.[1];
}

describe.each(Object.entries(PAGES))('the %s page', (kind, model) => {
  it.each(LOCALES)('is a whole document in %s, titled, with its data-page and the payment', (locale) => {
    const { html, lang } = renderPage(model, locale);
    expect(lang).toBe(locale);
    expect(html.startsWith(`<!DOCTYPE html><html lang="${locale}"`)).toBe(true);
    expect(html).toMatch(new RegExp(`<main class="page" id="main" data-page="${kind}">`));
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(h1(html)).toBeTruthy();
    expect(html).toContain(`<title>${h1(html)} – Acme Books</title>`);
    expect(textOf(html, 'merchant')).toBe('Acme Books');
  });

  it('has a text of its own in every language (no English left in the translations)', () => {
    const titles = LOCALES.map((locale) => h1(renderPage(model, locale).html));
    expect(new Set(titles).size).toBe(LOCALES.length);
  });

  it(`${usesScript(model) ? 'loads the one script from Payframe' : 'needs no script'}; nothing inline`, () => {
    const { html } = renderPage(model);
    expect(html).not.toMatch(/\son\w+=/i);
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts).toEqual(usesScript(model) ? [`<script src="${PAGE_SCRIPT_PATH}" defer>`] : []);
  });
});

describe('the one-time-code page', () => {
  const otp = PAGES.otp as Extract<PageModel, { kind: 'otp' }>;

  it('has the labelled code field, submit and resend, and gives the test code in test mode only', () => {
    const { html } = renderPage(otp);
    expect(html).toMatch(/<label for="otp">One-time code<\/label>/);
    expect(html).toMatch(/<input id="otp" name="otp" data-testid="otp"[^>]*inputmode="numeric"[^>]*autocomplete="one-time-code"/);
    expect(html).toMatch(/<button type="submit" id="otp-submit"[^>]*name="action" value="verify"/);
    expect(html).toMatch(/<button type="submit" id="otp-resend"[^>]*name="action" value="resend"/);
    expect(textOf(html, 'otp-hint')).toBe('Test mode: the code is 123456.');
    expect(textOf(html, 'otp-error')).toBeUndefined();
    expect(textOf(renderPage({ ...otp, payment: { ...payment, mode: 'live' } }).html, 'otp-hint')).toBeUndefined();
  });

  it.each([
    [2, 'en', 'That code is not right. You have 2 tries left.'],
    [1, 'en', 'That code is not right. You have 1 try left.'],
    [1, 'fr', 'Ce code est incorrect. Il vous reste 1 essai.'],
    [2, 'de', 'Dieser Code ist falsch. Sie haben noch 2 Versuche.'],
    [2, 'es', 'Ese código no es correcto. Le quedan 2 intentos.'],
  ])('says how many tries are left (%i, %s), tied to the field and announced', (triesLeft, locale, text) => {
    const { html } = renderPage({ ...otp, notice: 'wrong', triesLeft }, locale);
    expect(textOf(html, 'otp-error')).toBe(text);
    expect(html).toMatch(/<p class="error" id="otp-error" data-testid="otp-error" role="alert">/);
    expect(html).toMatch(/<input id="otp"[^>]*aria-invalid="true"[^>]*aria-describedby="otp-error"/);
  });

  it('confirms a resend in a status message', () => {
    const { html } = renderPage({ ...otp, notice: 'resent' }, 'de');
    expect(textOf(html, 'otp-resent')).toBe('Ein neuer Code wurde gesendet.');
    expect(html).toMatch(/role="status" data-testid="otp-resent"/);
  });
});

describe('the bank-app pages', () => {
  it('the waiting page refreshes itself every 2 s without a script, and links the simulated app in test mode', () => {
    const { html } = renderPage(PAGES['oob-waiting']!);
    expect(html).toContain('<meta http-equiv="refresh" content="2"/>');
    expect(h1(html)).toBe('Approve this payment in your banking app');
    expect(html).toMatch(/<a [^>]*id="device-link"[^>]*href="C1\/device\?paRes=pa_res-value"[^>]*target="_blank" rel="noopener noreferrer"/);
    const live = renderPage({ ...PAGES['oob-waiting']!, payment: { ...payment, mode: 'live' } } as PageModel).html;
    expect(live).not.toContain('device-link');
  });

  it('the device page approves or denies', () => {
    const { html } = renderPage(PAGES['oob-device']!, 'fr');
    expect(html).toMatch(/<button type="submit" id="approve"[^>]*name="result" value="success"[^>]*>Approuver<\/button>/);
    expect(html).toMatch(/<button type="submit" id="deny"[^>]*name="result" value="failure"[^>]*>Refuser<\/button>/);
    expect(html).not.toContain('http-equiv="refresh"');
  });
});

describe('frictionless, rejected, unavailable', () => {
  it.each([
    ['frictionless', 'Checking with your bank…', true],
    ['rejected', 'Your bank rejected this payment', false],
    ['auth-unavailable', 'Authentication unavailable', false],
  ] as const)('%s: says so and offers #continue (auto-submitted: %s)', (kind, title, auto) => {
    const { html } = renderPage(PAGES[kind]!);
    expect(h1(html)).toBe(title);
    expect(html).toMatch(/<button type="submit" id="continue" class="primary">Continue<\/button>/);
    expect(html).toContain('<input type="hidden" name="action" value="continue"/>');
    expect(html.includes('data-auto-submit')).toBe(auto);
  });

  it('the unavailable page says the payment can go ahead unauthenticated', () => {
    expect(renderPage(PAGES['auth-unavailable']!, 'es').html).toContain('El pago puede realizarse sin autenticación.');
  });
});

describe('the completion page and its script', () => {
  it('carries the outcome for the script, and a link to the shop for browsers without one', () => {
    const { html } = renderPage(PAGES.complete!);
    expect(html).toMatch(
      /<p id="completion" role="status" data-charge-id="C1" data-status="CHARGEABLE" data-trans-status="Y" data-target-origin="https:\/\/shop.example">/,
    );
    // Not settled by an issuer's answer (a card that needed none): no transStatus to tell.
    expect(renderPage({ ...(PAGES.complete as Extract<PageModel, { kind: 'complete' }>), status: 'NOT_AVAILABLE', transStatus: null }).html).not.toContain(
      'data-trans-status',
    );
    expect(html).toMatch(/<a class="link-button" id="return" data-testid="return-link" href="[^"]+" target="_top">/);
  });

  it('posts the protocol’s message to the target origin, never to "*"', () => {
    expect(PAGE_SCRIPT).toContain(JSON.stringify(THREEDS_COMPLETE));
    expect(PAGE_SCRIPT).toContain("done.getAttribute('data-target-origin')");
    expect(PAGE_SCRIPT).not.toContain("'*'");
  });

  it('in the merchant’s dialog, every page loads it and names its charge and the only origin it talks to', () => {
    const framing = { chargeId: 'C1', targetOrigin: 'https://shop.example' };
    const { html } = renderPage({ kind: 'challenge', payment, paRes }, 'en', framing);
    expect(html).toContain('<body data-charge-id="C1" data-target-origin="https://shop.example">');
    expect(html).toContain(`<script src="${PAGE_SCRIPT_PATH}" defer>`);
    expect(usesScript({ kind: 'challenge', payment, paRes }, framing)).toBe(true);
    expect(renderPage({ kind: 'challenge', payment, paRes }).html).toContain('<body>');
  });

  it('tells the parent about Esc, posted to the target origin', () => {
    expect(PAGE_SCRIPT).toContain(JSON.stringify(THREEDS_CLOSE));
    expect(PAGE_SCRIPT).toMatch(/event\.key === 'Escape'/);
    expect(PAGE_SCRIPT).toMatch(/chargeId: body\.getAttribute\('data-charge-id'\) \}, origin\)/);
  });

  it('is named by its content hash', () => {
    expect(PAGE_SCRIPT_PATH).toMatch(/^assets\/page-[0-9a-f]{12}\.js$/);
  });
});

describe('contentSecurityPolicy for the scenarios', () => {
  it('allows the own-origin script only when asked, and one framing origin for the in-page challenge', () => {
    const policy = contentSecurityPolicy(['https://shop.example/r'], { script: true, frameAncestor: 'https://shop.example:8443/return?x=1' });
    expect(policy).toContain("script-src 'self'");
    expect(policy).toMatch(/frame-ancestors https:\/\/shop\.example:8443$/);
    expect(contentSecurityPolicy([], { frameAncestor: 'javascript:alert(1)' })).toContain("frame-ancestors 'none'");
  });

  it('every language has every scenario text', () => {
    for (const locale of LOCALES) expect(Object.keys(messagesFor(locale)).sort()).toEqual(Object.keys(messagesFor('en')).sort());
  });
});
