import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PANS } from './client.ts';
import { createKeys, type InProcessTestServer, type Keys, startInProcess } from './harness.ts';

// The public ATLPay PHP SDK (adisaf/atlpay-php-sdk-v2, src/Token.php, src/Charge.php, src/Request.php)
// sends only documented parameters: its requests, byte for byte as its http_build_query and curl
// make them (bracketed names, null fields left out, an empty form body on capture and cancel),
// must still be served now that unknown names are refused (docs/api.md, "Unknown parameters").

let server: InProcessTestServer;
let keys: Keys;

beforeAll(async () => {
  server = await startInProcess();
  keys = await createKeys(server.dataDir, 'atlpay-php');
});
afterAll(() => server?.stop());

/** Token.php's card and shopper fields, in its order, for a card expiring in `month`. */
function tokenFields(month: string): Array<[string, string]> {
  return [
    ['card[number]', TEST_PANS.visa],
    ['card[exp_month]', month],
    ['card[exp_year]', String(new Date().getUTCFullYear() + 2)],
    ['card[cvc]', '123'],
    ['card[name]', 'Ada Lovelace'],
    ['shopper[ip]', '203.0.113.7'],
    ['shopper[session_id]', 'php-session'],
    ['shopper[email]', 'ada@example.com'],
  ];
}

/** What PHP's curl sends for CURLOPT_POSTFIELDS = http_build_query($payload), or a GET. */
async function send(method: 'GET' | 'POST', path: string, fields: Array<[string, string]> = []) {
  const init: RequestInit = { method, headers: { 'X-API-Key': keys.secretKey } };
  if (method === 'POST') {
    init.headers = { ...init.headers, 'content-type': 'application/x-www-form-urlencoded' };
    init.body = new URLSearchParams(fields).toString();
  }
  const response = await server.fetch(`${server.url}/v2${path}`, init);
  return { status: response.status, body: await response.json() };
}

describe('the ATLPay PHP SDK’s requests', () => {
  it('create a token (no billing address: its null fields are left out), charge, capture, refund, cancel', async () => {
    const token = await send('POST', '/tokens', tokenFields('12'));
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect((await send('GET', `/tokens/${token.body.id}`)).status).toBe(200);

    // setAmount(12.00) sends (float) 12.00 * 100, which http_build_query writes as 1200.
    const charge = await send('POST', '/charges', [
      ['token', token.body.id],
      ['amount', '1200'],
      ['currency', 'EUR'],
      ['description', 'Order 7'],
      ['txn_reference', 'order-7'],
      ['return_url', 'https://shop.example/return'],
    ]);
    expect(charge.status, JSON.stringify(charge.body)).toBe(200);
    expect((await send('GET', `/charges/${charge.body.id}`)).status).toBe(200);
    expect((await send('POST', `/charges/capture/${charge.body.id}`)).body).toMatchObject({ status: 'CHARGE_SUCCESS', amount_captured: 1200 });
    expect((await send('POST', `/charges/refund/${charge.body.id}`, [['amount', '200']])).body).toMatchObject({ amount: 200 });
    expect((await send('POST', `/charges/refund/${charge.body.id}`)).body).toMatchObject({ amount: 1000 });

    const another = await send('POST', '/tokens', [
      ...tokenFields('1'),
      ['address[address_line1]', '1 Rue de Rivoli'],
      ['address[city]', 'Paris'],
      ['address[country]', 'FR'],
      ['address[zipcode]', '75001'],
    ]);
    expect(another.status, JSON.stringify(another.body)).toBe(200);
    const pending = await send('POST', '/charges', [
      ['token', another.body.id],
      ['amount', '500'],
      ['currency', 'EUR'],
      ['description', 'Order 8'],
      ['return_url', 'https://shop.example/return'],
    ]);
    expect((await send('POST', `/charges/cancel/${pending.body.id}`)).body).toMatchObject({ status: 'CHARGE_FAILED', reason: 'CANCEL_USING_API' });
  });
});
