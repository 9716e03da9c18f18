import type { Payframe } from '@payframe/node';
import type { OrderStore } from './orders.ts';

/** What every page handler needs: the API client, the orders, and the two public URLs. */
export type Shop = {
  payframe: Payframe;
  orders: OrderStore;
  publishableKey: string;
  /** Payframe as the shopper's browser reaches it: the widget script and the CSP name it. */
  payframeUrl: string;
  /** The shop as the shopper's browser reaches it: return URLs point here. */
  url: string;
  /** The signing secret of the shop's webhook endpoint, once registered (webhooks.ts). */
  webhookSecret: string | undefined;
};
