import { EVENT_NAMES, type EventName } from '@payframe/contract';
import { Payframe } from '@payframe/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, client } from './client.ts';
import { eventually } from './database.ts';
import { cli, createKeys, startServer, type TestServer } from './harness.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

/** `payframe trigger EVENT` against a real server, with a real receiver at a webhook endpoint. */

let server: TestServer;
let api: Client;
let secretKey: string;
let receiver: Receiver;
let endpointSecret: string;

beforeAll(async () => {
  server = await startServer();
  secretKey = (await createKeys(server.dataDir, 'cli-trigger')).secretKey;
  api = client(server.url, secretKey);
  receiver = await startReceiver();
  const endpoint = await api.post('/v2/webhook_endpoints', { url: receiver.url });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
  endpointSecret = endpoint.body.secret;
});
afterAll(async () => {
  await receiver?.close();
  await server?.stop();
});

/** The `kind id` lines the command prints, as a map (the event line also names the event). */
function printedIds(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/).slice(0, 2) as [string, string]),
  );
}

async function trigger(name: string) {
  return cli(['trigger', name, '--api-key', secretKey, '--api-base', server.url]);
}

describe('payframe trigger', () => {
  it('charge.captured: the endpoint receives a signed delivery that constructEvent accepts', async () => {
    const { stdout, stderr, code } = await trigger('charge.captured');
    expect(code, stderr).toBe(0);
    const ids = printedIds(stdout);
    expect(ids.token).toBeTruthy();
    expect(ids.charge).toMatch(/^C\d{16,}$/);
    expect(ids.event).toMatch(/^evt_/);
    expect(stdout).toContain(`${ids.event}  charge.captured`);

    const delivered = await eventually(async () => receiver.received.find((request) => request.id === ids.event), 10_000, 'the delivery');
    const headers = { 'webhook-id': delivered.id, 'webhook-timestamp': delivered.timestamp, 'webhook-signature': delivered.signature };
    const event = Payframe.webhooks.constructEvent(delivered.body, headers, endpointSecret);
    expect(event).toMatchObject({ id: ids.event, name: 'charge.captured', mode: 'test', data: { object: { id: ids.charge, status: 'CHARGE_SUCCESS' } } });
  });

  it.each(EVENT_NAMES.filter((name) => name !== 'charge.captured'))('%s is recorded for the charge it made', async (name: EventName) => {
    const { stdout, stderr, code } = await trigger(name);
    expect(code, stderr).toBe(0);
    const ids = printedIds(stdout);
    const event = await api.get(`/v2/events/${ids.event}`);
    expect(event.body).toMatchObject({ name, data: { object: { id: ids.charge } } });
    if (name === 'charge.refunded') expect(event.body.data.refund.id).toBe(ids.refund);
    // Per-object time travel only: the account clock never moves.
    if (name === 'charge.expired') expect((await api.get('/v2/test_helpers/clock')).body.offset).toBe(0);
  });

  it('an unknown event: exit code 2, and the names it knows', async () => {
    const { stdout, stderr, code } = await trigger('charge.exploded');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('unknown event "charge.exploded"');
    for (const name of EVENT_NAMES) expect(stderr).toContain(name);
  });

  it('refuses a key that is not a test secret key, without echoing it (exit code 2)', async () => {
    const { stderr, code } = await cli(['trigger', 'charge.created', '--api-key', 'pk_test_not_a_secret', '--api-base', server.url]);
    expect(code).toBe(2);
    expect(stderr).toContain('sk_test_');
    expect(stderr).not.toContain('pk_test_not_a_secret');
  });

  it("stops with the API's error code when the API refuses (exit code 1)", async () => {
    const { stderr, code } = await cli(['trigger', 'charge.created', '--api-key', 'sk_test_unknownkey', '--api-base', server.url]);
    expect(code).toBe(1);
    expect(stderr).toContain('401 INVALID_API_KEY');
  });
});
