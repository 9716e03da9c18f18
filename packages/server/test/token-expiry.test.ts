import { TokenSchema } from '@payframe/contract';
import { expectError } from '@payframe/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advanceClock, type Client, chargeParams, client, createToken, expectResource, TEST_PANS } from './client.ts';
import { eventually, everyRow, queryStore } from './database.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

/**
 * Tokens can be charged for 15 minutes on the account's clock; the sweeper then erases the sealed
 * card number and CVC of the unused ones. The server runs with the default sweep period, which
 * must erase them within seconds of a test-clock advance.
 */

let server: InProcessTestServer;
let accounts = 0;

beforeAll(async () => {
  server = await startInProcess();
});

afterAll(async () => {
  await server?.stop();
});

/** A fresh account, so that each test moves its own test clock. */
async function freshApi(): Promise<Client> {
  const keys = await createKeys(server.dataDir, `token-expiry-${++accounts}`);
  return client(server, keys.secretKey);
}

async function newToken(api: Client, number: string = TEST_PANS.visa): Promise<string> {
  return (await createToken(api, number)).id;
}

async function sealedSecret(tokenId: string): Promise<string | null> {
  const [row] = await queryStore(server.dataDir, 'select card_secret from tokens where id = ?', [tokenId]);
  return (row?.card_secret as string | null | undefined) ?? null;
}

describe('token lifetime', () => {
  it('charges a token 14 minutes old', async () => {
    const api = await freshApi();
    const token = await newToken(api);
    await advanceClock(api, 14 * 60);
    const charge = await api.post('/v2/charges', chargeParams(token));
    expect(charge.status, JSON.stringify(charge.body)).toBe(200);
  });

  it('refuses a token 16 minutes old with 402 TOKEN_EXPIRED', async () => {
    const api = await freshApi();
    const token = await newToken(api);
    await advanceClock(api, 16 * 60);
    const charge = await api.post('/v2/charges', chargeParams(token));
    expect(charge.status).toBe(402);
    expect(charge.body).toMatchObject({ type: 'card_error', error: { code: 'TOKEN_EXPIRED', parameter: 'token' } });
  });

  it('answers TOKEN_ALREADY_USED for a used token, whatever its age', async () => {
    const api = await freshApi();
    const token = await newToken(api);
    expect((await api.post('/v2/charges', chargeParams(token))).status).toBe(200);
    await advanceClock(api, 60 * 60);
    expectError(await api.post('/v2/charges', chargeParams(token)), 402, 'TOKEN_ALREADY_USED');
  });
});

// Side by side: each waits for the sweeper's default period on its own account's clock.
describe.concurrent('the sweeper', () => {
  it('erases an expired unused token’s sealed card data from every table, keeps the token, and spares fresh tokens', async ({ expect }) => {
    const api = await freshApi();
    const expiring = await newToken(api);
    const secret = await sealedSecret(expiring);
    expect(secret, 'the token is stored with its sealed card data').toBeTruthy();

    await advanceClock(api, 16 * 60);
    const fresh = await newToken(api, TEST_PANS.mastercardDebit);
    // The default period (2 s) erases it within 5 s of the advance; the bound allows for a loaded machine.
    await eventually(async () => ((await sealedSecret(expiring)) === null ? true : undefined), 10_000, 'expired token erased');

    const holders = (await everyRow(server.dataDir)).filter(({ row }) => row.includes(secret ?? '') || row.includes((secret ?? '').slice(-40)));
    expect(holders, 'rows still holding the sealed secret').toEqual([]);
    expect(await sealedSecret(fresh), 'a token inside its lifetime keeps its card data').toBeTruthy();

    expect(expectResource(await api.get(`/v2/tokens/${expiring}`), TokenSchema).card.last4Digits).toBe('4242');

    expectError(await api.post('/v2/charges', chargeParams(expiring)), 402, 'TOKEN_EXPIRED');
    expect((await api.post('/v2/charges', chargeParams(fresh))).status).toBe(200);
  });

  it('erases nothing of a token that was used before it expired', async ({ expect }) => {
    const api = await freshApi();
    const used = await newToken(api);
    expect((await api.post('/v2/charges', chargeParams(used))).status).toBe(200);
    const [before] = await queryStore(server.dataDir, 'select * from tokens where id = ?', [used]);
    await advanceClock(api, 16 * 60);
    const marker = await newToken(api);
    await advanceClock(api, 16 * 60);
    await eventually(async () => ((await sealedSecret(marker)) === null ? true : undefined), 15_000, 'a later sweep ran');
    const [after] = await queryStore(server.dataDir, 'select * from tokens where id = ?', [used]);
    expect(after).toEqual(before);
  });
});
