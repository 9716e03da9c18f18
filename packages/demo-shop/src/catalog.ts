export type Product = {
  slug: string;
  name: string;
  blurb: string;
  /** Minor units of `currency`. */
  price: number;
  currency: string;
};

/** What the shop sells. Prices live on the server only: the checkout form never carries an amount. */
export const PRODUCTS: readonly Product[] = [
  { slug: 'mug', name: 'Payframe mug', blurb: 'Stoneware, 330 ml, dishwasher safe.', price: 1200, currency: 'EUR' },
  { slug: 'notebook', name: 'Dotted notebook', blurb: 'A5, 160 pages, lies flat.', price: 850, currency: 'EUR' },
  { slug: 'hoodie', name: 'Hoodie', blurb: 'Organic cotton, embroidered logo.', price: 4500, currency: 'EUR' },
];

export function findProduct(slug: string | null | undefined): Product | undefined {
  return PRODUCTS.find((product) => product.slug === slug);
}
