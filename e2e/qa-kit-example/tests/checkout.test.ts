import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Payframe } from '@payframe/node';
import { completeThreeDS, fillCard, TEST_CARDS } from '@payframe/qa-kit';
import { expect, test } from '@playwright/test';

// The keys `payframe serve --demo` wrote, and a shop's checkout page served on its own origin.
const apiBase = process.env.PAYFRAME_URL ?? '';
const keys = JSON.parse(readFileSync(join(process.env.PAYFRAME_DATA_DIR ?? '', 'demo-keys.json'), 'utf8'));
const payframe = new Payframe(keys.secretKey, { apiBase });
const checkout = `<script src="${apiBase}/v2/js/payframe.js"></script><div id="card-form"></div>
  <script>card = Payframe('${keys.publishableKey}').mount('#card-form', { fields: { email: true } })</script>`;
const shop = createServer((_request, response) => response.setHeader('content-type', 'text/html').end(checkout));
test.beforeAll(() => new Promise<void>((listening) => shop.listen(0, '127.0.0.1', listening)));
test.afterAll(() => new Promise<void>((closed) => shop.close(() => closed())));

test('a card that needs 3-D Secure is charged once the shopper authenticates', async ({ page }) => {
  const shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}`;
  await page.goto(`${shopUrl}/checkout`);
  await fillCard(page, { number: TEST_CARDS.visa3DS.number, email: 'ada@example.com' });
  const { token } = await page.evaluate<{ token: { id: string } }>('card.createToken()');
  const charge = await payframe.charges.create({ token: token.id, amount: 1200, currency: 'EUR', description: 'A mug', return_url: `${shopUrl}/done` });
  await page.goto(charge.threedSecure.redirect);
  await completeThreeDS(page, 'authenticate');
  expect(page.url()).toContain(`${shopUrl}/done`);
  expect((await payframe.charges.capture(charge.id)).status).toBe('CHARGE_SUCCESS');
});
