import type { OrderStore } from './orders.ts';
import type { PayframeClient } from './payframe-client.ts';

/** What every page handler needs: the API client, the orders, and the two public URLs. */
export type Shop = {
  payframe: PayframeClient;
  orders: OrderStore;
  publishableKey: string;
  /** Payframe as the shopper's browser reaches it: the widget script and the CSP name it. */
  payframeUrl: string;
  /** The shop as the shopper's browser reaches it: return URLs point here. */
  url: string;
};
