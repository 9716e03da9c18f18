import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, chargeParams, client, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

/** return_url's host, as written, goes into the 3-D Secure page's CSP: only plain hosts pass. */

let server: InProcessTestServer;
let api: Client;

beforeAll(async () => {
  server = await startInProcess();
  api = client(server, (await createKeys(server.dataDir, 'return-url')).secretKey);
});

afterAll(async () => {
  await server?.stop();
});

async function chargeWith(returnUrl: string) {
  const token = await api.post('/v2/tokens', tokenParams(TEST_PANS.visa3ds));
  return api.post('/v2/charges', chargeParams(token.body.id, { return_url: returnUrl }));
}

describe('return_url host', () => {
  it.each([
    'https://shop.example;sandbox;script-src;x/ret',
    'https://shop.example%3Bsandbox/ret',
    "https://shop.example'unsafe-inline'/ret",
    'https://shop.example,evil.example/ret',
  ])('refuses %s with 400 PARAMETER_INVALID on return_url', async (returnUrl) => {
    const charge = await chargeWith(returnUrl);
    expect({ status: charge.status, code: charge.body?.error?.code, parameter: charge.body?.error?.parameter }).toEqual({
      status: 400,
      code: 'PARAMETER_INVALID',
      parameter: 'return_url',
    });
  });

  it.each([
    'https://shop.example/return?order=42',
    'http://localhost:3000/checkout/done',
    'http://192.0.2.10:8080/r',
    'http://[2001:db8::1]:8080/r',
    'https://xn--bcher-kva.example/r',
  ])('accepts %s and hands it to the 3-D Secure page', async (returnUrl) => {
    const charge = await chargeWith(returnUrl);
    expect(charge.status, JSON.stringify(charge.body)).toBe(200);
    expect(charge.body.threedSecure.returnUrl).toBe(returnUrl);
  });
});
