import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, chargeParams, client, TEST_PANS, tokenParams } from './client.ts';
import { eventually, queryStore } from './database.ts';
import { createKeys, type InProcessTestServer, startInProcess } from './harness.ts';

/**
 * Idempotency records belong to (account, mode, key kind, key): the publishable key, public in
 * every checkout page, cannot occupy a key the merchant's secret key will use. Records past their
 * 24-hour replay window are deleted by the sweeper; records inside it still replay.
 */

let server: InProcessTestServer;
let merchant: Client;
let widget: Client;

beforeAll(async () => {
  server = await startInProcess({ env: { PAYFRAME_SWEEP_INTERVAL_MS: '200' } });
  const keys = await createKeys(server.dataDir, 'idempotency-scope');
  merchant = client(server, keys.secretKey);
  widget = client(server, keys.publishableKey);
});

afterAll(async () => {
  await server?.stop();
});

const withKey = (key: string) => ({ headers: { 'idempotency-key': key } });

describe('key kinds', () => {
  it('a failed publishable-key token request does not occupy the key of a later refund', async () => {
    const squat = await widget.post('/v2/tokens', tokenParams('4242424242424241'), withKey('refund-1001'));
    expect(squat.status).toBe(402);
    expect(squat.body.error.code).toBe('INCORRECT_NUMBER');
    const squatAgain = await widget.post('/v2/tokens', tokenParams('4242424242424241'), withKey('refund-1001'));
    expect(squatAgain.headers.get('idempotent-replayed'), 'the publishable key keeps its own record').toBe('true');

    const token = await merchant.post('/v2/tokens', tokenParams(TEST_PANS.visa));
    const charge = await merchant.post('/v2/charges', chargeParams(token.body.id));
    expect((await merchant.post(`/v2/charges/capture/${charge.body.id}`)).status).toBe(200);

    const refund = await merchant.post(`/v2/charges/refund/${charge.body.id}`, { amount: '100' }, withKey('refund-1001'));
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body.amount).toBe(100);
    const replay = await merchant.post(`/v2/charges/refund/${charge.body.id}`, { amount: '100' }, withKey('refund-1001'));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(refund.body.id);
  });

  it('a publishable-key token request does not occupy the key of a later secret-key charge', async () => {
    expect((await widget.post('/v2/tokens', tokenParams(TEST_PANS.visa), withKey('charge-7'))).status).toBe(200);
    const token = await merchant.post('/v2/tokens', tokenParams(TEST_PANS.visa));
    const charge = await merchant.post('/v2/charges', chargeParams(token.body.id), withKey('charge-7'));
    expect(charge.status, JSON.stringify(charge.body)).toBe(200);
    expect(charge.body.type).toBe('charge');
  });
});

describe('the sweeper and the replay window', () => {
  it('deletes records older than 24 hours and keeps recent ones replaying', async () => {
    const recent = await merchant.post('/v2/tokens', tokenParams(TEST_PANS.visa), withKey('recent-1'));
    expect(recent.status).toBe(200);

    const dayAndAnHourAgo = Date.now() - 25 * 60 * 60 * 1000;
    await queryStore(
      server.dataDir,
      `insert into idempotency_keys (account_id, mode, key_kind, key, request_hash, state, response_status, response_body, created_at, locked_at)
       values (?, 'test', 'secret', 'old-1', 'hash', 'done', 200, '{"name":"Ada Lovelace"}', ?, ?)`,
      ['acct-old', dayAndAnHourAgo, dayAndAnHourAgo],
    );
    await eventually(
      async () => ((await queryStore(server.dataDir, "select key from idempotency_keys where key = 'old-1'")).length === 0 ? true : undefined),
      10_000,
      'old idempotency record deleted',
    );

    const keys = (await queryStore(server.dataDir, 'select key from idempotency_keys')).map((row) => row.key);
    expect(keys).toContain('recent-1');
    const replay = await merchant.post('/v2/tokens', tokenParams(TEST_PANS.visa), withKey('recent-1'));
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(recent.body.id);
  });
});
