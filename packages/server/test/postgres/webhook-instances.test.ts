import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, TEST_PANS } from '../client.ts';
import { eventually, queryStore } from '../database.ts';
import { createKeys, startServer, type TestServer } from '../harness.ts';
import { type Receiver, startReceiver } from '../webhook-receiver.ts';
import { requirePostgres } from './support.ts';

/**
 * Two instances deliver from one PostgreSQL database: each delivery is leased by one instance at
 * a time, so the receiver never sees two attempts of one webhook-id at once, and every event
 * arrives. Each first attempt fails, so retries are claimed while the other instance polls too.
 */

const EVENTS = 200;
const env = { PAYFRAME_WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2' };

let first: TestServer;
let second: TestServer;
let apis: Client[];
let receiver: Receiver;

beforeAll(async () => {
  requirePostgres();
  first = await startServer({ env });
  second = await startServer({ env, dataDir: first.dataDir });
  const keys = await createKeys(first.dataDir, 'webhook-instances');
  apis = [first, second].map((server) => client(server.url, keys.secretKey));
  const seen = new Set<string>();
  receiver = await startReceiver((request) => {
    if (seen.has(request.id)) return { status: 200 };
    seen.add(request.id);
    return { status: 500 };
  });
});

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await receiver?.close();
});

describe('two instances, one endpoint', () => {
  it(`delivers each of ${EVENTS} events, never two attempts of one at once`, async () => {
    const endpoint = await apis[0]!.post('/v2/webhook_endpoints', { url: receiver.url, events: ['charge.created'] });
    expect(endpoint.status).toBe(200);
    for (let batch = 0; batch < EVENTS; batch += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, index) => createCharge(apis[(batch + index) % 2]!, TEST_PANS.visa)));
    }
    const events = await queryStore(first.dataDir, "select id from events where name = 'charge.created'");
    expect(events).toHaveLength(EVENTS);

    const deliveries = await eventually(
      async () => {
        const rows = await queryStore(first.dataDir, 'select event_id, status, attempts from webhook_deliveries');
        return rows.length === EVENTS && rows.every((row) => row.status === 'succeeded') ? rows : undefined;
      },
      60_000,
      'every delivery succeeded',
    );
    expect(deliveries.every((row) => Number(row.attempts) === 2)).toBe(true);
    expect(receiver.overlaps).toEqual([]);
    const perId = new Map<string, number>();
    for (const request of receiver.received) perId.set(request.id, (perId.get(request.id) ?? 0) + 1);
    expect(new Set(perId.keys())).toEqual(new Set(events.map((row) => String(row.id))));
    expect([...perId.values()].every((count) => count === 2)).toBe(true);
    const attempts = await queryStore(first.dataDir, 'select count(*) as n from webhook_attempts');
    expect(Number(attempts[0]?.n)).toBe(EVENTS * 2);
  }, 120_000);
});
