import type { Shop } from '../context.ts';
import { html, type SafeHtml } from '../html.ts';

type PageOptions = { title: string; body: SafeHtml; head?: SafeHtml; testId: string };

/** Every page: the shop's header, its stylesheet and nothing inline (the CSP allows no inline code). */
export function layout(shop: Shop, { title, body, head, testId }: PageOptions): SafeHtml {
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title} — Payframe Demo Shop</title>
    <link rel="stylesheet" href="/assets/shop.css" />
    ${head}
  </head>
  <body>
    <header class="site">
      <a class="brand" href="/" data-testid="nav-shop">Payframe Demo Shop</a>
      <span class="badge" data-testid="test-mode">Test mode</span>
      <nav><a href="/" data-testid="nav-products">Products</a> <a href="/orders" data-testid="nav-orders">Orders</a></nav>
    </header>
    <main data-testid="${testId}" data-payframe-url="${shop.payframeUrl}">
      ${body}
    </main>
  </body>
</html>`;
}
