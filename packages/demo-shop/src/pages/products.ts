import { findProduct, PRODUCTS } from '../catalog.ts';
import type { Shop } from '../context.ts';
import { html } from '../html.ts';
import { htmlReply, type Reply } from '../http.ts';
import { formatMoney } from '../money.ts';
import { notFound } from './errors.ts';
import { layout } from './layout.ts';

export function productList(shop: Shop): Reply {
  const items = PRODUCTS.map(
    (product) => html`<li class="product" data-testid="product-${product.slug}">
      <h2><a href="/products/${product.slug}" data-testid="product-link-${product.slug}">${product.name}</a></h2>
      <p>${product.blurb}</p>
      <p class="price">${formatMoney(product.price, product.currency)}</p>
    </li>`,
  );
  return htmlReply(layout(shop, { title: 'Products', testId: 'products', body: html`<h1>Products</h1><ul class="products">${items}</ul>` }));
}

export function productPage(shop: Shop, slug: string): Reply {
  const product = findProduct(slug);
  if (!product) return notFound(shop, 'product');
  return htmlReply(
    layout(shop, {
      title: product.name,
      testId: 'product',
      body: html`<article class="product-page">
        <h1 data-testid="product-name">${product.name}</h1>
        <p>${product.blurb}</p>
        <p class="price" data-testid="product-price">${formatMoney(product.price, product.currency)}</p>
        <a class="button" href="/checkout?product=${product.slug}" data-testid="buy">Buy now</a>
      </article>`,
    }),
  );
}
