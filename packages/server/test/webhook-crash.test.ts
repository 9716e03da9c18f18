import { afterAll, describe, expect, it } from 'vitest';
import { client, createCharge, TEST_PANS } from './client.ts';
import { eventually, queryStore } from './database.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

/**
 * At least once across kill -9: events committed while the receiver was down are all delivered
 * by the restarted server, deliveries leased by the killed process included (their lease runs out).
 */

const CHARGES = 30;
// A 1 s attempt timeout makes the lease of what the killed process held 2 s, not the default 20 s
// that the restarted server would otherwise wait out before retrying those deliveries.
const env = { PAYFRAME_WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1', PAYFRAME_WEBHOOK_TIMEOUT_MS: '1000' };
const servers: TestServer[] = [];
let receiver: Receiver | undefined;
afterAll(async () => {
  await receiver?.close();
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
});

describe('webhooks across kill -9', () => {
  it('every event committed before the kill arrives after the restart', async () => {
    const first = await startServer({ env });
    servers.push(first);
    const api = client(first.url, (await createKeys(first.dataDir, 'crash')).secretKey);
    // The receiver's port, then the receiver down: attempts before the kill are refused.
    const reserved = await startReceiver();
    const port = reserved.port;
    await reserved.close();
    const endpoint = await api.post('/v2/webhook_endpoints', { url: `http://127.0.0.1:${port}/webhooks`, events: ['charge.created'] });
    expect(endpoint.status).toBe(200);

    const charges = await Promise.all(Array.from({ length: CHARGES }, () => createCharge(api, TEST_PANS.visa)));
    expect(charges).toHaveLength(CHARGES);
    await first.stop('SIGKILL');

    const events = await queryStore(first.dataDir, "select id from events where name = 'charge.created'");
    expect(events).toHaveLength(CHARGES);
    receiver = await startReceiver(() => ({ status: 200 }), port);
    const second = await startServer({ dataDir: first.dataDir, env });
    servers.push(second);

    const expected = new Set(events.map((row) => String(row.id)));
    // Within the lease of any delivery the killed process held, and its retry.
    await eventually(
      async () => ([...expected].every((id) => receiver?.received.some((request) => request.id === id)) ? true : undefined),
      40_000,
      'every event at the receiver',
    );
    const received = new Set(receiver.received.map((request) => request.id));
    expect(received).toEqual(expected);
    const deliveries = await eventually(
      async () => {
        const rows = await queryStore(first.dataDir, 'select status from webhook_deliveries');
        return rows.every((row) => row.status === 'succeeded') ? rows : undefined;
      },
      10_000,
      'every delivery recorded as succeeded',
    );
    expect(deliveries).toHaveLength(CHARGES);
  }, 90_000);
});
