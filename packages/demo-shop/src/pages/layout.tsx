import type { ComponentChildren } from 'preact';

type LayoutProps = {
  title: string;
  /** The `data-testid` of `<main>`: which page this is. */
  testId: string;
  /** Payframe as the shopper's browser reaches it. */
  payframeUrl: string;
  head?: ComponentChildren;
  children: ComponentChildren;
};

/** Every page: the shop's header, its stylesheet and nothing inline (the CSP allows no inline code). */
export function Layout({ title, testId, payframeUrl, head, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} — Payframe Demo Shop`}</title>
        <link rel="stylesheet" href="/assets/shop.css" />
        {head}
      </head>
      <body>
        <header class="site">
          <a class="brand" href="/" data-testid="nav-shop">
            Payframe Demo Shop
          </a>
          <span class="badge" data-testid="test-mode">
            Test mode
          </span>
          <nav>
            <a href="/" data-testid="nav-products">
              Products
            </a>{' '}
            <a href="/orders" data-testid="nav-orders">
              Orders
            </a>
          </nav>
        </header>
        <main data-testid={testId} data-payframe-url={payframeUrl}>
          {children}
        </main>
      </body>
    </html>
  );
}
