import { findProduct, PRODUCTS, type Product } from '../catalog.ts';
import type { Shop } from '../context.ts';
import { htmlReply, type Reply } from '../http.ts';
import { formatMoney } from '../money.ts';
import { notFound } from './errors.tsx';
import { Layout } from './layout.tsx';

export function ProductList({ products, payframeUrl }: { products: readonly Product[]; payframeUrl: string }) {
  return (
    <Layout title="Products" testId="products" payframeUrl={payframeUrl}>
      <h1>Products</h1>
      <ul class="products">
        {products.map((product) => (
          <li class="product" data-testid={`product-${product.slug}`}>
            <h2>
              <a href={`/products/${product.slug}`} data-testid={`product-link-${product.slug}`}>
                {product.name}
              </a>
            </h2>
            <p>{product.blurb}</p>
            <p class="price">{formatMoney(product.price, product.currency)}</p>
          </li>
        ))}
      </ul>
    </Layout>
  );
}

export function ProductPage({ product, payframeUrl }: { product: Product; payframeUrl: string }) {
  return (
    <Layout title={product.name} testId="product" payframeUrl={payframeUrl}>
      <article class="product-page">
        <h1 data-testid="product-name">{product.name}</h1>
        <p>{product.blurb}</p>
        <p class="price" data-testid="product-price">
          {formatMoney(product.price, product.currency)}
        </p>
        <a class="button" href={`/checkout?product=${encodeURIComponent(product.slug)}`} data-testid="buy">
          Buy now
        </a>
      </article>
    </Layout>
  );
}

export const productList = (shop: Shop): Reply => htmlReply(<ProductList products={PRODUCTS} payframeUrl={shop.payframeUrl} />);

export function productPage(shop: Shop, slug: string): Reply {
  const product = findProduct(slug);
  return product ? htmlReply(<ProductPage product={product} payframeUrl={shop.payframeUrl} />) : notFound(shop, 'product');
}
