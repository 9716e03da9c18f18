import { createHash } from 'node:crypto';
import { ISO_DIGITS_EXAMPLES } from '@payframe/contract/money-format-examples';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './csp.ts';
import type { PageModel, PaymentSummary } from './model.ts';
import { renderPage } from './render.tsx';
import { PAGE_CSS } from './styles.ts';

const payment: PaymentSummary = {
  merchantName: 'Acme Books',
  amount: 123456,
  currency: 'EUR',
  brand: 'VISA',
  last4: '3220',
  description: 'Order #1',
  mode: 'test',
};
const challenge: PageModel = { kind: 'challenge', payment, paRes: 'pa_res-value' };

/** Text of the element with this data-testid or id, tags stripped, entities of text decoded. */
function textOf(html: string, selector: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]*(?:data-testid|id)="${selector}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  if (!match) return undefined;
  return decode(match[2]!.replace(/<[^>]*>/g, '')).replace(/[\u00a0\u202f]/g, ' ');
}

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function attribute(html: string, element: string, name: string): string | undefined {
  const tag = new RegExp(`<${element}\\b[^>]*>`).exec(html)?.[0];
  const value = tag && new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  return value === undefined || value === null ? undefined : decode(value);
}

describe('the challenge page', () => {
  it('is a whole document with language, viewport, landmarks and both buttons', () => {
    const { html, lang } = renderPage(challenge, 'en-US');
    expect(lang).toBe('en');
    expect(html.startsWith('<!DOCTYPE html><html lang="en"')).toBe(true);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"/>');
    expect(html).toMatch(/<header class="banner">/);
    expect(html).toMatch(/<main class="page" id="main" data-page="challenge">/);
    expect(html).toMatch(/<footer class="footer">/);
    expect(textOf(html, 'authenticate')).toBe('Complete authentication');
    expect(textOf(html, 'fail')).toBe('Fail authentication');
    expect(html).toContain('<title>Confirm your payment – Acme Books</title>');
  });

  it('shows merchant, amount in the shopper’s locale, brand with last 4, and the description', () => {
    const { html } = renderPage(challenge, 'en');
    expect(textOf(html, 'merchant')).toBe('Acme Books');
    expect(textOf(html, 'amount')).toBe('€1,234.56');
    expect(textOf(html, 'card')).toBe('Visa ending in •••• 3220');
    expect(textOf(html, 'description')).toBe('Order #1');
  });

  it('posts the paRes back to its own URL with two named submit buttons, and needs no script', () => {
    const { html } = renderPage(challenge);
    expect(attribute(html, 'form', 'method')).toBe('post');
    expect(attribute(html, 'form', 'action')).toBeUndefined();
    expect(html).toContain('<input type="hidden" name="paRes" value="pa_res-value"/>');
    expect(html).toMatch(/<button type="submit" id="authenticate"[^>]*name="result" value="success"/);
    expect(html).toMatch(/<button type="submit" id="fail"[^>]*name="result" value="failure"/);
    expect(html).not.toMatch(/<script|\son\w+=/i);
  });

  it('says "Test mode" in test mode only', () => {
    expect(textOf(renderPage(challenge).html, 'test-mode')).toMatch(/^Test mode/);
    const live = renderPage({ ...challenge, payment: { ...payment, mode: 'live' } }).html;
    expect(textOf(live, 'test-mode')).toBeUndefined();
    expect(live).not.toContain('Test mode');
  });

  it.each([
    ['fr-FR,fr;q=0.9', 'fr', 'Terminer l’authentification', 'Mode test', '1 234,56 €'],
    ['de', 'de', 'Authentifizierung abschließen', 'Testmodus', '1.234,56 €'],
    ['es-ES', 'es', 'Completar la autenticación', 'Modo de prueba', '1234,56 €'],
    ['ja, en-GB;q=0.5', 'en', 'Complete authentication', 'Test mode', '€1,234.56'],
  ])('speaks the shopper’s language for %j', (header, lang, authenticate, testMode, amount) => {
    const { html } = renderPage(challenge, header);
    expect(html.startsWith(`<!DOCTYPE html><html lang="${lang}"`)).toBe(true);
    expect(textOf(html, 'authenticate')).toBe(authenticate);
    expect(textOf(html, 'test-mode')).toContain(testMode);
    expect(textOf(html, 'amount')).toBe(amount);
  });

  it.each(['*', 'garbage;;;', '\u0000', 'x'.repeat(5000)])('is English for Accept-Language %j', (header) => {
    const { html, lang } = renderPage(challenge, header);
    expect(lang).toBe('en');
    expect(textOf(html, 'authenticate')).toBe('Complete authentication');
  });

  it('formats amounts in the currency’s own minor units: JPY has none, BHD has three', () => {
    const yen = renderPage({ ...challenge, payment: { ...payment, amount: 1500, currency: 'JPY' } }, 'en').html;
    expect(textOf(yen, 'amount')).toBe('¥1,500');
    const dinar = renderPage({ ...challenge, payment: { ...payment, amount: 1234, currency: 'BHD' } }, 'en').html;
    expect(textOf(dinar, 'amount')).toBe('BHD 1.234');
    const dinarFr = renderPage({ ...challenge, payment: { ...payment, amount: 1234, currency: 'BHD' } }, 'fr').html;
    expect(textOf(dinarFr, 'amount')).toBe('1,234 BHD');
  });

  it.each(ISO_DIGITS_EXAMPLES)('shows $amount $currency in ISO 4217 minor units, as the demo shop does: $text', ({ amount, currency, text }) => {
    const { html } = renderPage({ ...challenge, payment: { ...payment, amount, currency } }, 'en-IE');
    expect(textOf(html, 'amount')).toBe(text);
  });

  it('names brands as shoppers know them, and an unknown one as "Card" in the page language', () => {
    expect(textOf(renderPage({ ...challenge, payment: { ...payment, brand: 'AMEX', last4: '0005' } }).html, 'card')).toBe(
      'American Express ending in •••• 0005',
    );
    expect(textOf(renderPage({ ...challenge, payment: { ...payment, brand: 'UNKNOWN' } }, 'de').html, 'card')).toBe('Karte endet auf •••• 3220');
  });

  it('leaves the description out when the merchant gave none', () => {
    expect(textOf(renderPage({ ...challenge, payment: { ...payment, description: '' } }).html, 'description')).toBeUndefined();
  });
});

describe('escaping: merchant-provided text is text, never markup', () => {
  const hostile = '</dd><script>alert(1)</script><img src=x onerror="alert(2)">&amp; "quoted" \'single\'';

  it.each(['description', 'merchantName'] as const)('escapes the %s', (field) => {
    const { html } = renderPage({ ...challenge, payment: { ...payment, [field]: hostile } });
    expect(html).not.toMatch(/<script|<img|<\/dd><script/i);
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
    expect(textOf(html, field === 'description' ? 'description' : 'merchant')).toBe(hostile);
  });

  it('escapes the title, the paRes attribute and the return link', () => {
    const merchant = { ...payment, merchantName: '<title>x</title>' };
    expect(renderPage({ ...challenge, payment: merchant }).html).toContain('<title>Confirm your payment – &lt;title>x&lt;/title></title>');
    const attr = renderPage({ ...challenge, paRes: '"><script>alert(1)</script>' }).html;
    expect(attr).toContain('value="&quot;>&lt;script>alert(1)&lt;/script>"');
    const link = renderPage({ kind: 'completed', payment, outcome: 'CHARGEABLE', returnLink: 'https://shop.example/r?a="><b>&c=1' }).html;
    expect(link).toContain('href="https://shop.example/r?a=&quot;>&lt;b>&amp;c=1"');
  });

  it('never renders a javascript: or data: return link', () => {
    for (const returnLink of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'not a url']) {
      const { html } = renderPage({ kind: 'unavailable', payment, returnLink });
      expect(html).not.toContain('data-testid="return-link"');
      expect(html).not.toMatch(/<a\b|href="(javascript|data:text|not a url)/);
    }
  });
});

describe('the other pages', () => {
  const returnLink = 'https://shop.example/return?order=7&charge_id=C1&status=CHARGEABLE';

  it('already completed: the outcome and a link back, no form', () => {
    const { html } = renderPage({ kind: 'completed', payment, outcome: 'CHARGEABLE', returnLink });
    expect(html).toContain('data-page="completed"');
    expect(html).toContain('<h1>Authentication already completed</h1>');
    expect(html).toContain('This payment was authenticated successfully.');
    expect(attribute(html, 'a', 'href')).toBe(returnLink);
    expect(textOf(html, 'return-link')).toBe('Return to Acme Books');
    expect(html).not.toContain('<form');
    const failed = renderPage({ kind: 'completed', payment, outcome: 'FAILED', returnLink }, 'es').html;
    expect(failed).toContain('La autenticación de este pago ha fallado.');
  });

  it('no authentication needed (frictionless card): says so, links back', () => {
    const { html } = renderPage({ kind: 'not-needed', payment, returnLink }, 'fr');
    expect(html).toContain('<h1>Aucune authentification nécessaire</h1>');
    expect(textOf(html, 'return-link')).toBe('Retour à Acme Books');
    expect(html).not.toContain('<form');
  });

  it('no longer available: says so, links back', () => {
    const { html } = renderPage({ kind: 'unavailable', payment, returnLink }, 'de');
    expect(html).toContain('<h1>Diese Zahlung ist nicht mehr verfügbar</h1>');
    expect(textOf(html, 'return-link')).toBe('Zurück zu Acme Books');
  });

  it('not found: reveals nothing about any charge', () => {
    const { html } = renderPage({ kind: 'not-found' });
    expect(html).toContain('data-page="not-found"');
    expect(html).toContain('<title>Page not found</title>');
    expect(html).not.toMatch(/<form|<a |data-testid="(merchant|amount)"/);
  });

  it.each([
    ['bad-request', 'could not be understood'],
    ['method-not-allowed', 'cannot be used that way'],
    ['unavailable', 'reload this page'],
  ] as const)('error %s', (reason, text) => {
    const { html } = renderPage({ kind: 'error', reason });
    expect(html).toContain('<h1>Something went wrong</h1>');
    expect(html).toContain(text);
  });
});

describe('contentSecurityPolicy', () => {
  it('allows the inline stylesheet by its hash, no script, no framing, forms to self and the return origin', () => {
    const policy = contentSecurityPolicy(['https://shop.example:8443/return?x=1', 'http://localhost:3000/r']);
    const hash = createHash('sha256').update(PAGE_CSS).digest('base64');
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("script-src 'none'");
    expect(policy).toContain(`style-src 'self' 'sha256-${hash}'`);
    expect(policy).toContain("form-action 'self' https://shop.example:8443 http://localhost:3000");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    // Images: own origin, and data: for the empty favicon that spares a request for /favicon.ico.
    expect(policy).toContain("img-src 'self' data:");
    expect(renderPage(challenge).html).toContain('<link rel="icon" href="data:,"/>');
  });

  it('ignores targets that are not http(s) URLs', () => {
    expect(contentSecurityPolicy(['javascript:alert(1)', 'nonsense', "https://a.example/'x"])).toContain("form-action 'self' https://a.example;");
  });

  it('matches the stylesheet the page really carries', () => {
    const css = /<style>([\s\S]*?)<\/style>/.exec(renderPage(challenge).html)?.[1];
    expect(css).toBe(PAGE_CSS);
  });
});
