import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, chargeParams, client, createCharge, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, type InProcessTestServer, type Keys, startInProcess } from './harness.ts';

/**
 * The headers of the real `payframe serve` on every kind of answer: each HTML page (the widget's
 * frame, the hosted 3-D Secure pages) with its own policy on top of helmet's, and every API answer
 * — successes and errors of each status — JSON, never cached, never sniffed.
 */

let server: InProcessTestServer;
let keys: Keys;
let api: Client;

beforeAll(async () => {
  server = await startInProcess({ env: { PAYFRAME_TOKEN_RATE_LIMIT: '1' } });
  keys = await createKeys(server.dataDir, 'headers');
  api = client(server, keys.secretKey);
});
afterAll(() => server?.stop());

type Answer = { label: string; status: number; headers: Headers };

async function get(label: string, url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await server.fetch(url, init);
  await response.arrayBuffer();
  return { label, status: response.status, headers: response.headers };
}

/** What helmet adds everywhere: no MIME sniffing, no referrer across origins, HSTS, no X-Powered-By. */
function expectBaseline({ label, headers }: Answer): void {
  expect(headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(headers.get('referrer-policy'), label).toMatch(/no-referrer/);
  expect(headers.get('strict-transport-security'), label).toMatch(/max-age=\d+/);
  expect(headers.get('x-powered-by'), label).toBeNull();
}

describe('HTML pages', () => {
  it('the widget frame: embeddable by any merchant, loads only its own files, revalidated', async () => {
    const frame = await get('frame.html', `${server.url}/v2/widget/frame.html`);
    expect(frame.status).toBe(200);
    expect(frame.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectBaseline(frame);
    expect(frame.headers.get('x-frame-options')).toBeNull();
    // The process hint would cost every cold mount a second renderer start (widget-assets.ts).
    expect(frame.headers.get('origin-agent-cluster')).toBeNull();
    const csp = frame.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'none'", 'frame-ancestors *']) {
      expect(csp).toContain(directive);
    }
    // Its one script and one stylesheet are inline, each allowed by its hash alone.
    expect(csp).toMatch(/script-src 'sha256-[\w+/]+=*';/);
    expect(csp).toMatch(/style-src 'sha256-[\w+/]+=*';/);
    expect(csp).not.toContain('unsafe');
    expect(frame.headers.get('cache-control')).toBe('no-cache');
  });

  it('the hosted 3-D Secure pages (challenge, and the page for an unknown link): framed by no one, no referrer, never cached', async () => {
    const charge = await createCharge(api, TEST_PANS.visa3ds);
    const pages = [await get('challenge', charge.threedSecure.redirect), await get('unknown link', `${server.url}/3d-secure/C0000000000000000000?paRes=x`)];
    expect(pages.map((page) => page.status)).toEqual([200, 404]);
    for (const page of pages) {
      expect(page.headers.get('content-type'), page.label).toBe('text/html; charset=utf-8');
      expectBaseline(page);
      expect(page.headers.get('referrer-policy'), page.label).toBe('no-referrer');
      expect(page.headers.get('x-frame-options'), page.label).toBe('DENY');
      expect(page.headers.get('content-security-policy'), page.label).toContain("frame-ancestors 'none'");
      expect(page.headers.get('cache-control'), page.label).toBe('no-store');
    }
  });
});

describe('API answers', () => {
  it('are JSON, no-store and helmeted for successes and for errors of every status', async () => {
    const key = { 'x-api-key': keys.secretKey };
    const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa));
    const publishable = client(server, keys.publishableKey);
    await publishable.post('/v2/tokens', tokenParams(TEST_PANS.visa));
    const answers = [
      await get('healthz', `${server.url}/healthz`),
      await get('openapi', `${server.url}/v2/openapi.json`),
      await get('token', `${server.url}/v2/tokens/${token.body.id}`, { headers: key }),
      await get('charge', `${server.url}/v2/charges`, {
        method: 'POST',
        headers: key,
        body: new URLSearchParams(chargeParams(token.body.id) as Record<string, string>),
      }),
      await get('400', `${server.url}/v2/charges`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: '{' }),
      await get('400 malformed URL', `${server.url}/v2/charges/%ZZ`, { headers: key }),
      await get('401', `${server.url}/v2/charges/C1`),
      await get('402', `${server.url}/v2/tokens`, {
        method: 'POST',
        headers: key,
        body: new URLSearchParams({
          'card[number]': '4242424242424241',
          'card[cvc]': '123',
          'card[exp_month]': '12',
          'card[exp_year]': '2099',
          'card[name]': 'A',
          'shopper[ip]': '203.0.113.7',
          'shopper[session_id]': 's',
          'shopper[email]': 'a@example.com',
        }),
      }),
      await get('403', `${server.url}/v2/charges/C1`, { headers: { 'x-api-key': keys.publishableKey } }),
      await get('404', `${server.url}/v2/nowhere`, { headers: key }),
      await get('405', `${server.url}/v2/charges/capture/C1`, { headers: key }),
      await get('413', `${server.url}/v2/tokens`, {
        method: 'POST',
        headers: { ...key, 'content-type': 'application/json' },
        body: `"${'x'.repeat(1024 * 1024)}"`,
      }),
      await get('415', `${server.url}/v2/tokens`, { method: 'POST', headers: { ...key, 'content-type': 'text/plain' }, body: 'x' }),
      await get('429', `${server.url}/v2/tokens`, { method: 'POST', headers: { 'x-api-key': keys.publishableKey }, body: new URLSearchParams() }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 400, 400, 401, 402, 403, 404, 405, 413, 415, 429]);
    for (const answer of answers) {
      expect(answer.headers.get('content-type'), answer.label).toMatch(/^application\/json/);
      expect(answer.headers.get('cache-control'), answer.label).toBe('no-store');
      expect(answer.headers.get('x-content-type-options'), answer.label).toBe('nosniff');
      // A malformed URL is answered before routing, where no hook (helmet's included) runs.
      if (answer.label !== '400 malformed URL') expectBaseline(answer);
    }
  });
});
