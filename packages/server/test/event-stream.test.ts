import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client, createCharge, expectErrorShape, TEST_PANS } from './client.ts';
import { eventually, queryStore } from './database.ts';
import { type OpenStream, openStream } from './event-stream-reader.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';

/** GET /v2/events/stream over real HTTP against a real server (docs/stream.md). */

let server: TestServer;
const streams: OpenStream[] = [];

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await server?.stop();
});

async function account(name: string): Promise<{ api: Client; secretKey: string }> {
  const { secretKey } = await createKeys(server.dataDir, name);
  return { api: client(server.url, secretKey), secretKey };
}

async function open(secretKey: string, lastEventId?: string): Promise<OpenStream> {
  const stream = await openStream(server.url, secretKey, lastEventId);
  streams.push(stream);
  return stream;
}

/** Every event of the charges' account, in commit order, as stored. */
async function storedEvents(chargeId: string): Promise<Array<{ id: string; body: string }>> {
  const rows = await queryStore(
    server.dataDir,
    'select id, body from events where account_id = (select account_id from events where charge_id = ? limit 1) order by seq',
    [chargeId],
  );
  return rows.map((row) => ({ id: String(row.id), body: String(row.body) }));
}

/** A charge created and captured: two events. */
async function capturedCharge(api: Client): Promise<string> {
  const charge = await createCharge(api, TEST_PANS.visa);
  expect((await api.post(`/v2/charges/capture/${charge.id}`)).status).toBe(200);
  return charge.id;
}

describe('GET /v2/events/stream', () => {
  it('answers 200 text/event-stream at once, then streams each event as it commits, byte for byte as stored', async () => {
    const { api, secretKey } = await account('stream-basic');
    const before = await createCharge(api, TEST_PANS.visa);
    const stream = await open(secretKey);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get('cache-control')).toBe('no-store');

    const chargeId = await capturedCharge(api);
    const events = await stream.waitFor(2);
    // The charge created before the stream opened is not in it.
    expect(events.map((event) => [event.event, event.data.data.object.id])).toEqual([
      ['charge.created', chargeId],
      ['charge.captured', chargeId],
    ]);
    const stored = (await storedEvents(chargeId)).filter((event) => event.id !== (before as { id: string }).id);
    for (const event of events) {
      expect(event.id).toBe(event.data.id);
      expect(event.event).toBe(event.data.name);
      expect(event.raw).toBe(stored.find((row) => row.id === event.id)?.body);
    }
  });

  it('disconnect, reconnect with Last-Event-ID: nothing missed, nothing repeated', async () => {
    const { api, secretKey } = await account('stream-resume');
    const first = await open(secretKey);
    await capturedCharge(api);
    await capturedCharge(api);
    const seenFirst = await first.waitFor(4);
    first.close();
    await first.done;

    // Events committed while no stream is open, then more once it is open again.
    await capturedCharge(api);
    const second = await open(secretKey, seenFirst.at(-1)!.id);
    const last = await capturedCharge(api);
    const seenSecond = await second.waitFor(4);

    const ids = [...seenFirst, ...seenSecond].map((event) => event.id);
    expect(ids).toEqual((await storedEvents(last)).map((event) => event.id));
    // Nothing more arrives than the events committed: the next one on the stream is the next commit.
    const marker = await createCharge(api, TEST_PANS.visa);
    const [next] = (await second.waitFor(5)).slice(4);
    expect(next?.data.data.object.id).toBe(marker.id);
  });

  it('concurrent changes all arrive, each once', async () => {
    const { api, secretKey } = await account('stream-concurrent');
    const stream = await open(secretKey);
    const charges = await Promise.all(Array.from({ length: 20 }, () => createCharge(api, TEST_PANS.visa)));
    const events = await stream.waitFor(20);
    expect(new Set(events.map((event) => event.data.data.object.id))).toEqual(new Set(charges.map((charge) => charge.id)));
    const marker = await createCharge(api, TEST_PANS.visa);
    expect((await stream.waitFor(21))[20]?.data.data.object.id).toBe(marker.id);
  });

  it('streams only its own account and mode', async () => {
    const mine = await account('stream-mine');
    const other = await account('stream-other');
    const stream = await open(mine.secretKey);
    await createCharge(other.api, TEST_PANS.visa);
    const charge = await createCharge(mine.api, TEST_PANS.visa);
    const [event] = await stream.waitFor(1);
    expect(event?.data.data.object.id).toBe(charge.id);
    expect(stream.events).toHaveLength(1);
  });

  it('an unknown Last-Event-ID, or another account’s event, is 400 RESOURCE_MISSING as JSON before any stream', async () => {
    const mine = await account('stream-unknown');
    const other = await account('stream-unknown-other');
    const stream = await open(other.secretKey);
    await createCharge(other.api, TEST_PANS.visa);
    const [otherEvent] = await stream.waitFor(1);

    for (const id of ['evt_000000000000000000000000', otherEvent!.id]) {
      const response = await fetch(`${server.url}/v2/events/stream`, { headers: { 'x-api-key': mine.secretKey, 'last-event-id': id } });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await response.json();
      expectErrorShape(body);
      expect(body.error).toMatchObject({ code: 'RESOURCE_MISSING', parameter: 'Last-Event-ID' });
    }
  });

  it('opens at most 10 streams per account and mode: the 11th is 429 RATE_LIMITED with Retry-After; closing one makes room', async () => {
    const capped = await account('stream-capped');
    const streamsOpen = await Promise.all(Array.from({ length: 10 }, () => open(capped.secretKey)));
    expect(streamsOpen.map((stream) => stream.response.status)).toEqual(Array(10).fill(200));
    const refused = await fetch(`${server.url}/v2/events/stream`, { headers: { 'x-api-key': capped.secretKey } });
    expect(refused.status).toBe(429);
    const body = await refused.json();
    expectErrorShape(body);
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account is not affected, and every one of the 10 still gets each event once.
    expect((await open((await account('stream-uncapped')).secretKey)).response.status).toBe(200);
    const charge = await createCharge(capped.api, TEST_PANS.visa);
    for (const stream of streamsOpen) expect((await stream.waitFor(1))[0]?.data.data.object.id).toBe(charge.id);

    streamsOpen[0]!.close();
    await streamsOpen[0]!.done;
    // The server sees the close when the socket goes: the next open may come before it.
    const reopened = await eventually(
      async () => {
        const stream = await open(capped.secretKey);
        if (stream.response.status === 200) return stream;
        stream.close();
        return undefined;
      },
      5_000,
      'a stream after one closed',
    );
    const next = await createCharge(capped.api, TEST_PANS.visa);
    expect((await reopened.waitFor(1))[0]?.data.data.object.id).toBe(next.id);
  });

  it('refuses a publishable key', async () => {
    const { publishableKey } = await createKeys(server.dataDir, 'stream-publishable');
    const response = await fetch(`${server.url}/v2/events/stream`, { headers: { 'x-api-key': publishableKey } });
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe('PUBLISHABLE_KEY_NOT_ALLOWED');
  });
});

describe('open streams and the server around them', () => {
  let limited: TestServer;

  beforeAll(async () => {
    limited = await startServer({ env: { PAYFRAME_SECRET_KEY_RATE_LIMIT: '2' } });
  });
  afterAll(() => limited?.stop());

  it('the rate limit does not count streams; the stop ends open streams instead of waiting on them', async () => {
    const { secretKey } = await createKeys(limited.dataDir, 'stream-stop');
    const open = await Promise.all(Array.from({ length: 4 }, () => openStream(limited.url, secretKey)));
    expect(open.map((stream) => stream.response.status)).toEqual([200, 200, 200, 200]);
    const api = client(limited.url, secretKey);
    const statuses = [];
    for (let index = 0; index < 3; index++) statuses.push((await api.get('/v2/charges/C0000000000000000')).status);
    expect(statuses).toEqual([404, 404, 429]);

    const started = Date.now();
    const exit = await limited.stop();
    // Well under the 10 s grace period after which a stop would cut connections anyway.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(exit.code).toBe(0);
    await Promise.all(open.map((stream) => stream.done));
    expect(open.every((stream) => stream.ended)).toBe(true);
  });
});
