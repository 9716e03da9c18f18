import { CreatedWebhookEndpointSchema, TokenSchema } from '@payframe/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, expectResource, TEST_PANS, tokenParams } from './client.ts';
import { untilRequestLogged } from './database.ts';
import { createKeys, type InProcessTestServer, startInProcess, withStoreOf } from './harness.ts';
import { readStore } from './store-contents.ts';

/**
 * What an idempotency record leaves in a copy of the database (docs/security.md "Idempotency
 * records"): a keyed fingerprint of the request and a sealed response, so neither the card data
 * of a token request nor the answer (shoppers' details, a webhook endpoint's secret) comes back.
 */

const KEY = 'at-rest-1';
const servers: InProcessTestServer[] = [];

beforeAll(async () => {
  // Each data directory makes its own master key on first start.
  servers.push(await startInProcess(), await startInProcess());
});
afterAll(() => Promise.all(servers.map((server) => server.stop())));

async function secretKeyOf(server: InProcessTestServer): Promise<string> {
  return (await createKeys(server.dataDir, 'at-rest')).secretKey;
}

/** Hashes, MACs, ciphertexts and ids: strings of 16 or more characters with no word break (a bank's name is not one). */
const OPAQUE = /^[A-Za-z0-9+/=._:-]{16,}$/;

/** Every opaque string in the idempotency records and tokens: what an attacker could match across copies. */
async function opaqueValues(server: InProcessTestServer): Promise<Set<string>> {
  const rows = await withStoreOf(server.dataDir, (store) =>
    store.read(async (db) => [...(await db.selectFrom('idempotency_keys').selectAll().execute()), ...(await db.selectFrom('tokens').selectAll().execute())]),
  );
  return new Set(rows.flatMap((row) => Object.values(row).filter((value): value is string => typeof value === 'string' && OPAQUE.test(value))));
}

describe('idempotency records at rest', () => {
  it('the same token request under the same key on two stores with different master keys leaves no opaque value in common', async () => {
    const base = tokenParams(TEST_PANS.mastercardDebit) as { card: Record<string, string> };
    const params = { ...base, card: { ...base.card, cvc: '318' } };
    const values: Array<Set<string>> = [];
    for (const server of servers) {
      const api = client(server, await secretKeyOf(server));
      const first = expectResource(await api.post('/v2/tokens', params, { headers: { 'idempotency-key': KEY } }), TokenSchema);
      // The sealed response still replays byte for byte.
      const replay = await api.post('/v2/tokens', params, { headers: { 'idempotency-key': KEY } });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(expectResource(replay, TokenSchema)).toEqual(first);
      const opaque = await opaqueValues(server);
      // The record is there, and its response is not readable: no token id in clear beside the token row's own.
      const stored = await withStoreOf(server.dataDir, (store) =>
        store.read((db) => db.selectFrom('idempotency_keys').selectAll().where('key', '=', KEY).executeTakeFirstOrThrow()),
      );
      expect(stored.response_status).toBe(200);
      expect(stored.response_body).not.toContain(first.id);
      expect(stored.response_body).not.toContain('MASTERCARD');
      expect(opaque.has(stored.request_hash)).toBe(true);
      values.push(opaque);
    }
    const [one, other] = values as [Set<string>, Set<string>];
    expect([...one].filter((value) => other.has(value))).toEqual([]);
  });

  it('keeps no webhook endpoint secret in clear in any database file, WAL included, after an idempotent create', async () => {
    const [server] = servers as [InProcessTestServer];
    const api = client(server, await secretKeyOf(server));
    const params = { url: 'http://127.0.0.1:9/hooks', description: 'at rest' };
    const created = expectResource(
      await api.post('/v2/webhook_endpoints', params, { headers: { 'idempotency-key': 'at-rest-hook' } }),
      CreatedWebhookEndpointSchema,
    );
    const replayed = await api.post('/v2/webhook_endpoints', params, { headers: { 'idempotency-key': 'at-rest-hook' } });
    const replay = expectResource(replayed, CreatedWebhookEndpointSchema);
    expect(replay.secret).toBe(created.secret);
    // The request log keeps both answers too: the scan waits until they are written.
    await untilRequestLogged(server.dataDir, replayed);
    const { secret } = created;
    const raw = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    expect(raw).toHaveLength(32);

    const files = await readStore(server.dataDir);
    expect(files.size).toBeGreaterThan(0);
    const leaks = [...files].filter(([, bytes]) => bytes.includes(secret.replace(/^whsec_/, '')) || bytes.includes(raw)).map(([name]) => name);
    expect(leaks).toEqual([]);
  });
});
