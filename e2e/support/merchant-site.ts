import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type MerchantConfig = {
  publishableKey: string;
  email: string;
  /** What the page passes to mount(). */
  options: Record<string, unknown>;
};

export type RecordedRequest = { method: string; url: string; headers: string; body: string };

export type MerchantSite = {
  /** On `localhost`, while Payframe is on 127.0.0.1: another origin, as a real merchant's would be. */
  url: string;
  /** Every request the merchant's server received, bodies included. */
  requests: RecordedRequest[];
  configure(config: MerchantConfig): void;
  stop(): Promise<void>;
};

const MERCHANT_SCRIPT = readFileSync(new URL('./merchant.js', import.meta.url), 'utf8');

function page(payframeUrl: string, config: MerchantConfig): string {
  // Data, not code: a JSON block is never executed, so the strict CSP below does not need to allow it.
  const data = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Checkout — Test Shop</title>
    <script src="${payframeUrl}/v2/js/payframe.js"></script>
    <script id="config" type="application/json">${data}</script>
    <script src="/merchant.js" defer></script>
  </head>
  <body>
    <main>
      <h1>Checkout</h1>
      <label for="coupon">Coupon code</label>
      <input id="coupon" name="coupon" />
      <div id="card"></div>
      <button id="pay" type="button">Pay</button>
      <output id="result"></output>
    </main>
  </body>
</html>`;
}

/** A merchant's site: one checkout page under a strict CSP that names only the Payframe host. */
export async function startMerchant(payframeUrl: string): Promise<MerchantSite> {
  const requests: RecordedRequest[] = [];
  let config: MerchantConfig | undefined;
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${payframeUrl}`,
    `frame-src ${payframeUrl}`,
    "connect-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
  ].join('; ');
  const server: Server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    requests.push({ method: request.method ?? '', url: request.url ?? '', headers: JSON.stringify(request.headers), body });
    if (request.url === '/checkout' && config) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp, 'cache-control': 'no-store' });
      response.end(page(payframeUrl, config));
    } else if (request.url === '/merchant.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(MERCHANT_SCRIPT);
    } else if (request.url === '/pay' && request.method === 'POST') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"ok":true}');
    } else if (request.url === '/favicon.ico') {
      response.writeHead(204).end();
    } else {
      response.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    requests,
    configure(next) {
      config = next;
    },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
