/**
 * The demo shop alone, against any Payframe server (`npm start` runs both together, see start.ts):
 *
 *   PAYFRAME_API_URL=http://127.0.0.1:4000 PAYFRAME_SECRET_KEY=sk_test_… PAYFRAME_PUBLISHABLE_KEY=pk_test_… \
 *     node --import tsx packages/demo-shop/src/main.ts
 *
 * Also SHOP_PORT (4001), HOST (127.0.0.1), SHOP_DATA_DIR (.payframe/demo-shop), SHOP_PUBLIC_URL and
 * PAYFRAME_PUBLIC_URL (Payframe as browsers reach it, when that differs from PAYFRAME_API_URL), and
 * SHOP_3DS_DISPLAY (`modal`, the default: 3-D Secure in a dialog on the shop's page; `redirect`: the full redirect).
 */
import { threeDSDisplayFrom } from './context.ts';
import { startShop } from './server.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

try {
  const shop = await startShop({
    port: Number(process.env.SHOP_PORT ?? 4001),
    host: process.env.HOST ?? '127.0.0.1',
    apiUrl: required('PAYFRAME_API_URL'),
    publicApiUrl: process.env.PAYFRAME_PUBLIC_URL || undefined,
    secretKey: required('PAYFRAME_SECRET_KEY'),
    publishableKey: required('PAYFRAME_PUBLISHABLE_KEY'),
    dataDir: process.env.SHOP_DATA_DIR ?? '.payframe/demo-shop',
    publicUrl: process.env.SHOP_PUBLIC_URL || undefined,
    threeDSDisplay: threeDSDisplayFrom(process.env),
  });
  console.log(`Demo shop is running at ${shop.url}`);
  const stop = () => void shop.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(`demo shop: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
