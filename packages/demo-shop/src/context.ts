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
  /** 3-D Secure in a dialog on the shop's page (`modal`), or by sending the shopper to Payframe's page (`redirect`). */
  threeDSDisplay: ThreeDSDisplay;
};

export type ThreeDSDisplay = 'modal' | 'redirect';

/** SHOP_3DS_DISPLAY: `redirect` keeps the full redirect; unset or `modal` uses the dialog. */
export function threeDSDisplayFrom(env: NodeJS.ProcessEnv): ThreeDSDisplay {
  const value = env.SHOP_3DS_DISPLAY || 'modal';
  if (value !== 'modal' && value !== 'redirect') throw new Error('SHOP_3DS_DISPLAY must be modal or redirect');
  return value;
}
