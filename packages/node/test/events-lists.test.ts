import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Charge, type Event, InvalidRequestError, Payframe } from '../src/index.ts';
import { chargeParams, createKeys, type RunningServer, startServer, TEST_CARDS, tokenParams } from './server.ts';

// Lists, events and webhook endpoints through the SDK, against a real server.

let server: RunningServer;
let payframe: Payframe;

beforeAll(async () => {
  server = await startServer({ PAYFRAME_WEBHOOK_RETRY_SCHEDULE: '1,1' });
  const keys = await createKeys(server.dataDir, 'lists-shop');
  payframe = new Payframe(keys.secretKey, { apiBase: server.url });
});
afterAll(() => server?.stop());

async function newCharge(email = 'ada@example.com', number: string = TEST_CARDS.visa): Promise<Charge> {
  const token = await payframe.tokens.create({ ...tokenParams(number), shopper: { ...tokenParams(number).shopper, email } });
  return payframe.charges.create(chargeParams(token.id));
}

/** Polls through the SDK until `check` passes: deliveries happen in the background. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('lists', () => {
  it('awaits one page and iterates every page, newest first', async () => {
    const made: string[] = [];
    for (let i = 0; i < 7; i += 1) made.push((await newCharge(`pages-${i}@example.com`)).id);
    const page = await payframe.charges.list({ limit: 3 });
    expect(page).toMatchObject({ type: 'list', url: '/v2/charges', has_more: true });
    expect(page.data.map((charge) => charge.id)).toEqual(made.slice(-3).reverse());

    const walked: string[] = [];
    for await (const charge of payframe.charges.list({ limit: 3 })) walked.push(charge.id);
    expect(walked.slice(0, 7)).toEqual([...made].reverse());
    expect(new Set(walked).size).toBe(walked.length);
  });

  it('walks towards newer objects from ending_before, oldest first, while an awaited page stays newest first', async () => {
    const made: string[] = [];
    for (let i = 0; i < 6; i += 1) made.push((await newCharge(`newer-${i}@example.com`)).id);
    const newer: string[] = [];
    for await (const charge of payframe.charges.list({ limit: 2, ending_before: made[0] as string })) newer.push(charge.id);
    expect(newer).toEqual(made.slice(1));
    const page = await payframe.charges.list({ limit: 2, ending_before: made[0] as string });
    expect(page.data.map((charge) => charge.id)).toEqual([made[2], made[1]]);
  });

  it('filters charges by status, e-mail (any case) and last4', async () => {
    const charge = await newCharge('Grace@Example.com');
    await payframe.charges.capture(charge.id);
    const found = await payframe.charges.list({ email: 'grace@EXAMPLE.com', status: 'CHARGE_SUCCESS', last4: '4242' });
    expect(found.data.map((item) => item.id)).toEqual([charge.id]);
    expect((await payframe.charges.list({ email: 'grace@example.com', status: 'PENDING' })).data).toEqual([]);
  });

  it('lists the refunds of one charge', async () => {
    const charge = await payframe.charges.capture((await newCharge()).id);
    const first = await payframe.refunds.create(charge.id, { amount: 100 });
    const second = await payframe.refunds.create(charge.id, { amount: 100 });
    const page = await payframe.refunds.list({ charge: charge.id });
    expect(page.data.map((refund) => refund.id)).toEqual([second.id, first.id]);
  });

  it('refuses both cursors on ending_before and an unknown cursor as RESOURCE_MISSING', async () => {
    const both = await payframe.charges.list({ starting_after: 'C1', ending_before: 'C2' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(both).toBeInstanceOf(InvalidRequestError);
    expect(both).toMatchObject({ status: 400, code: 'PARAMETER_INVALID', parameter: 'ending_before' });
    const unknown = await payframe.charges.list({ starting_after: 'C0000000000000000' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(unknown).toMatchObject({ status: 400, code: 'RESOURCE_MISSING', parameter: 'starting_after' });
  });
});

describe('events', () => {
  it('records each change of a charge, retrievable by id', async () => {
    const charge = await newCharge();
    await payframe.charges.capture(charge.id);
    await payframe.refunds.create(charge.id, { amount: 100 });
    const events: Event[] = [];
    for await (const event of payframe.events.list({ charge: charge.id })) events.push(event);
    expect(events.map((event) => event.name)).toEqual(['charge.refunded', 'charge.captured', 'charge.created']);
    expect(events[0]?.data.refund?.amount).toBe(100);
    const [latest] = events;
    expect(await payframe.events.retrieve(latest?.id as string)).toEqual(latest);
    const captured = await payframe.events.list({ charge: charge.id, name: 'charge.captured' });
    expect(captured.data.map((event) => event.data.object.status)).toEqual(['CHARGE_SUCCESS']);
  });
});

describe('webhook endpoints and deliveries', () => {
  let receiver: Server;
  let receiverUrl: string;
  const received: Array<{ body: string; headers: IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ body, headers: request.headers });
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/payframe`;
  });
  afterAll(() => new Promise((resolve) => receiver?.close(resolve)));

  it('creates (secret shown once), lists, retrieves and deletes an endpoint', async () => {
    const created = await payframe.webhookEndpoints.create({ url: 'http://127.0.0.1:9/hook', events: ['charge.captured'], description: 'CRUD' });
    expect(created).toMatchObject({ type: 'webhook_endpoint', url: 'http://127.0.0.1:9/hook', events: ['charge.captured'], description: 'CRUD', mode: 'test' });
    expect(created.secret).toMatch(/^whsec_/);
    const retrieved = await payframe.webhookEndpoints.retrieve(created.id);
    expect(retrieved).not.toHaveProperty('secret');
    const listed: string[] = [];
    for await (const endpoint of payframe.webhookEndpoints.list()) listed.push(endpoint.id);
    expect(listed).toContain(created.id);
    const updated = await payframe.webhookEndpoints.update(created.id, { disabled: true, description: 'paused', events: ['charge.refunded'] });
    expect(updated).toEqual({ ...retrieved, disabled: true, description: 'paused', events: ['charge.refunded'] });
    expect(await payframe.webhookEndpoints.retrieve(created.id)).toEqual(updated);
    expect(await payframe.webhookEndpoints.delete(created.id)).toEqual({ type: 'webhook_endpoint', id: created.id, deleted: true });
    await expect(payframe.webhookEndpoints.retrieve(created.id)).rejects.toMatchObject({ status: 404, code: 'RESOURCE_MISSING' });
    // del, Stripe's name for it, deletes too.
    const another = await payframe.webhookEndpoints.create({ url: 'http://127.0.0.1:9/other' });
    expect(await payframe.webhookEndpoints.del(another.id)).toEqual({ type: 'webhook_endpoint', id: another.id, deleted: true });
    await expect(payframe.webhookEndpoints.del(another.id)).rejects.toMatchObject({ status: 404, code: 'RESOURCE_MISSING' });
  });

  it('delivers signed events that constructEvent accepts, shows the delivery, and resends', async () => {
    const endpoint = await payframe.webhookEndpoints.create({ url: receiverUrl, events: ['charge.captured'] });
    const charge = await newCharge();
    await payframe.charges.capture(charge.id);
    const captured = (await payframe.events.list({ charge: charge.id, name: 'charge.captured' })).data[0] as Event;

    const deliveries = await eventually(
      () => payframe.events.deliveries(captured.id),
      (list) => list.data[0]?.status === 'succeeded',
    );
    expect(deliveries.data).toEqual([
      {
        type: 'webhook_delivery',
        endpoint: endpoint.id,
        event: captured.id,
        status: 'succeeded',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        next_attempt: null,
      },
    ]);
    const delivered = received.filter((request) => request.headers['webhook-id'] === captured.id);
    expect(delivered).toHaveLength(1);
    const [first] = delivered;
    expect(Payframe.webhooks.constructEvent(first?.body ?? '', first?.headers ?? {}, endpoint.secret)).toEqual(captured);

    const queued = await payframe.events.resend(captured.id, { endpoint: endpoint.id });
    expect(queued.data).toHaveLength(1);
    expect(queued.data[0]).toMatchObject({ endpoint: endpoint.id, event: captured.id });
    await eventually(
      async () => received.filter((request) => request.headers['webhook-id'] === captured.id).length,
      (count) => count === 2,
    );
    expect(received.filter((request) => request.headers['webhook-id'] === captured.id)).toHaveLength(2);
  });
});
