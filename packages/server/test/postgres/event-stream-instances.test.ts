import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createCharge, TEST_PANS } from '../client.ts';
import { type OpenStream, openStream } from '../event-stream-reader.ts';
import { createKeys, startServer, type TestServer } from '../harness.ts';
import { databaseUrlOf, requirePostgres, withDatabase } from './support.ts';

/** The live stream on PostgreSQL: events from every instance, and commits that land out of seq order. */

let servers: TestServer[] = [];
const streams: OpenStream[] = [];

beforeAll(async () => {
  requirePostgres();
  const first = await startServer();
  servers = [first, await startServer({ dataDir: first.dataDir })];
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await Promise.all(servers.map((server) => server.stop()));
});

describe('GET /v2/events/stream on two instances of one database', () => {
  it('a stream on one instance carries the events committed through the other, each once', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const { secretKey } = await createKeys(a.dataDir, 'stream-instances');
    const stream = await openStream(a.url, secretKey);
    streams.push(stream);
    const viaB = client(b.url, secretKey);
    const viaA = client(a.url, secretKey);
    const charges = await Promise.all(Array.from({ length: 30 }, (_, index) => createCharge(index % 2 ? viaA : viaB, TEST_PANS.visa)));

    const events = await stream.waitFor(30);
    expect(events.map((event) => event.data.data.object.id).sort()).toEqual(charges.map((charge) => charge.id).sort());
    const marker = await createCharge(viaB, TEST_PANS.visa);
    expect((await stream.waitFor(31))[30]?.data.data.object.id).toBe(marker.id);
  });

  it('an event that commits after one with a higher seq is still streamed, and a resume past both repeats neither', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const { secretKey } = await createKeys(a.dataDir, 'stream-late-commit');
    const api = client(b.url, secretKey);
    const stream = await openStream(a.url, secretKey);
    streams.push(stream);
    const first = await createCharge(api, TEST_PANS.visa);
    const [created] = await stream.waitFor(1);
    const accountId = await withDatabase(await databaseUrlOf(a.dataDir), async (db) => {
      const rows = await db.query('select account_id from events where id = $1', [created!.id]);
      return rows.rows[0].account_id as string;
    });

    // A transaction takes its seq, then stays open while a later event (a higher seq) commits.
    const databaseUrl = await databaseUrlOf(a.dataDir);
    const late = { type: 'event', id: 'evt_latecommit00000000000000', name: 'charge.captured', created: 0, mode: 'test', data: { object: { id: first.id } } };
    const later = await withDatabase(databaseUrl, async (db) => {
      await db.query('begin');
      const inserted = await db.query(
        'insert into events (id, account_id, mode, name, charge_id, created_at, body) values ($1, $2, $3, $4, $5, $6, $7) returning seq',
        [late.id, accountId, 'test', late.name, first.id, Date.now(), JSON.stringify(late)],
      );
      const charge = await createCharge(api, TEST_PANS.visa);
      const committed = await withDatabase(
        databaseUrl,
        async (other) => (await other.query('select id, seq from events where charge_id = $1', [charge.id])).rows,
      );
      expect(Number(inserted.rows[0].seq)).toBeLessThan(Number(committed[0].seq));
      await db.query('commit');
      return committed[0].id as string;
    });

    const events = await stream.waitFor(3);
    expect(events.map((event) => event.id)).toEqual([created!.id, late.id, later]);

    const resumed = await openStream(a.url, secretKey, stream.events.at(-1)!.id);
    streams.push(resumed);
    const marker = await createCharge(api, TEST_PANS.visa);
    const [next] = await resumed.waitFor(1);
    expect(next?.data.data.object.id).toBe(marker.id);
  });
});
