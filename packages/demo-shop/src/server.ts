import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectionError, Payframe, PayframeError } from '@payframe/node';
import type { Shop, ThreeDSDisplay } from './context.ts';
import { isCrossSite, type Reply, readForm, type ShopRequest, securityHeaders } from './http.ts';
import { openOrderStore } from './orders.ts';
import { showCheckout, submitCheckout } from './pages/checkout.tsx';
import { notFound, unavailable } from './pages/errors.tsx';
import { orderList } from './pages/orders.tsx';
import { authenticatePage, paymentReturn } from './pages/payment-result.tsx';
import { productList, productPage } from './pages/products.tsx';
import { receiptPage, refundOrder } from './pages/receipt.ts';
import { registerWebhookEndpoint, WEBHOOK_PATH, webhookReceiver } from './webhooks.ts';

export type ShopConfig = {
  port: number;
  host: string;
  /** Payframe as the shop's server reaches it (the secret-key API calls). */
  apiUrl: string;
  /** Payframe as shoppers' browsers reach it; defaults to apiUrl. */
  publicApiUrl?: string | undefined;
  secretKey: string;
  publishableKey: string;
  /** Where orders.json and the webhook endpoint's secret live. */
  dataDir: string;
  /** The shop as browsers reach it (return URLs); defaults to the listening URL. */
  publicUrl?: string | undefined;
  /** How checkout runs 3-D Secure; the dialog by default. */
  threeDSDisplay?: ThreeDSDisplay | undefined;
};

export type RunningShop = { url: string; close(): Promise<void> };

type Handler = (shop: Shop, request: ShopRequest) => Reply | Promise<Reply>;
const ORDER = '(ord_[0-9a-f]{16})';
const ROUTES: Array<[method: string, path: RegExp, handler: Handler]> = [
  ['GET', /^\/$/, (shop) => productList(shop)],
  ['GET', /^\/products\/([\w-]+)$/, (shop, request) => productPage(shop, request.params[0] ?? '')],
  ['GET', /^\/checkout$/, showCheckout],
  ['POST', /^\/checkout$/, submitCheckout],
  ['GET', /^\/orders$/, orderList],
  ['GET', new RegExp(`^/orders/${ORDER}$`), receiptPage],
  ['GET', new RegExp(`^/orders/${ORDER}/authenticate$`), authenticatePage],
  ['GET', new RegExp(`^/orders/${ORDER}/return$`), paymentReturn],
  ['POST', new RegExp(`^/orders/${ORDER}/refund$`), refundOrder],
];

const ASSETS: Record<string, string> = {
  '/assets/checkout.js': 'text/javascript',
  '/assets/three-ds.js': 'text/javascript',
  '/assets/shop.css': 'text/css',
};
const PUBLIC_DIR = new URL('../public/', import.meta.url);

/** The demo shop: server-rendered pages on node:http, talking to Payframe only over its public API. */
export async function startShop(config: ShopConfig): Promise<RunningShop> {
  const orders = await openOrderStore(config.dataDir);
  const payframeUrl = (config.publicApiUrl ?? config.apiUrl).replace(/\/$/, '');
  const headers = securityHeaders(new URL(payframeUrl).origin);
  const shop: Shop = {
    payframe: new Payframe(config.secretKey, { apiBase: config.apiUrl.replace(/\/$/, '') }),
    orders,
    publishableKey: config.publishableKey,
    payframeUrl,
    url: '',
    webhookSecret: undefined,
    threeDSDisplay: config.threeDSDisplay ?? 'modal',
  };
  const receiveWebhook = webhookReceiver();

  const route = async (request: IncomingMessage): Promise<Reply> => {
    const url = new URL(request.url ?? '/', 'http://shop.invalid');
    const method = request.method ?? 'GET';
    if (method === 'GET' && url.pathname in ASSETS) {
      const body = await readFile(new URL(url.pathname.slice('/assets/'.length), PUBLIC_DIR), 'utf8');
      return { status: 200, body, headers: { 'content-type': `${ASSETS[url.pathname]}; charset=utf-8`, 'cache-control': 'no-cache' } };
    }
    if (url.pathname === '/favicon.ico') return { status: 204 };
    // Payframe's deliveries: verified on the raw body, so they skip the form parsing below.
    if (url.pathname === WEBHOOK_PATH) return method === 'POST' ? receiveWebhook(shop, request) : notFound(shop);
    for (const [routeMethod, pattern, handler] of ROUTES) {
      const match = pattern.exec(url.pathname);
      if (!match || routeMethod !== method) continue;
      if (method === 'POST' && isCrossSite(request)) return { status: 403, body: 'cross-site form refused' };
      const form = method === 'POST' ? await readForm(request) : new URLSearchParams();
      return handler(shop, { method, url, params: match.slice(1), form });
    }
    return notFound(shop);
  };

  const server = createServer((request, response) => {
    route(request)
      .catch((error: unknown) => {
        if (error instanceof PayframeError && error.status === 404) return notFound(shop, 'order');
        if (!(error instanceof PayframeError) && !(error instanceof ConnectionError)) console.error('demo shop:', error);
        // A fault of the API, or the API unreachable.
        return unavailable(shop);
      })
      .then((reply) => {
        response.writeHead(reply.status, { ...headers, 'content-type': 'text/plain; charset=utf-8', ...reply.headers });
        response.end(reply.body);
      });
  });
  server.listen(config.port, config.host);
  await once(server, 'listening').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    throw new Error(`${config.host}:${config.port} is already in use: stop what listens there, or give the shop another port (--shop-port N, or SHOP_PORT)`, {
      cause: error,
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  shop.url = (config.publicUrl ?? url).replace(/\/$/, '');
  shop.webhookSecret = await registerWebhookEndpoint(shop.payframe, config.dataDir, shop.url);
  return {
    url: shop.url,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
