import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, TEST_PANS, tokenParams } from './client.ts';
import { queryStore } from './database.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

/** Beside the last 4, at most the first min(6, length − 10) digits are stored or returned: six stay hidden. */

let server: InProcessTestServer;
let api: Client;

beforeAll(async () => {
  server = await startInProcess();
  api = client(server, (await createKeys(server.dataDir, 'card-digits')).secretKey);
});

afterAll(async () => {
  await server?.stop();
});

describe('stored card digits', () => {
  it.each([
    ['a 12-digit Maestro', '675900000125', '67'],
    ['a 14-digit Diners card', '30569309025904', '3056'],
    ['a 15-digit American Express', '378282246310005', '37828'],
    ['a 16-digit Visa', TEST_PANS.visa, '424242'],
  ])('%s keeps %s… beside its last 4', async (_name, number, leading) => {
    const token = await api.post('/v2/tokens', tokenParams(number));
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body.card.last4Digits).toBe(number.slice(-4));

    const [row] = await queryStore(server.dataDir, 'select bin, last4 from tokens where id = ?', [token.body.id]);
    expect(row).toEqual({ bin: leading, last4: number.slice(-4) });
    expect((await api.get(`/v2/tokens/${token.body.id}`)).body.card.last4Digits).toBe(number.slice(-4));
  });
});
