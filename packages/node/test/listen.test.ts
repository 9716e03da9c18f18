import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { freePort } from '@payframe/server/process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Payframe, SignatureVerificationError } from '../src/index.ts';
import { chargeParams, createKeys, type RunningServer, spawnCli, startServer, TEST_CARDS, tokenParams } from './server.ts';

/** `payframe listen` against a real server, forwarding to a real receiver that verifies with the SDK. */

type Received = { body: string; headers: IncomingHttpHeaders };

let server: RunningServer;
let port: number;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let listen: ReturnType<typeof spawnCli> | undefined;

beforeAll(async () => {
  port = await freePort('127.0.0.1');
  server = await startServer({}, { port });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/webhooks`;
});

afterAll(async () => {
  await listen?.stop();
  await server?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function receivedCount(count: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (received.length < count) {
    if (Date.now() > deadline) throw new Error(`only ${received.length} of ${count} forwarded:\n${listen?.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function createCharge(payframe: Payframe): Promise<string> {
  const token = await payframe.tokens.create(tokenParams(TEST_CARDS.visa));
  return (await payframe.charges.create(chargeParams(token.id))).id;
}

describe('payframe listen', () => {
  it('forwards each event signed with the secret it prints, which constructEvent accepts; after a dropped stream it resumes without gaps or repeats', async () => {
    const { secretKey } = await createKeys(server.dataDir, 'listen');
    listen = spawnCli(['listen', '--forward-to', receiverUrl, '--api-key', secretKey, '--api-base', server.url]);
    const secret = (await listen.waitForOutput(/Webhook signing secret: (whsec_\S+)/))[1]!;
    await listen.waitForOutput(/Ready: listening for events/);

    let payframe = new Payframe(secretKey, { apiBase: server.url });
    const first = await createCharge(payframe);
    await payframe.charges.capture(first);
    await receivedCount(2);
    const events = received.map(({ body, headers }) => Payframe.webhooks.constructEvent(body, headers, secret));
    expect(events.map((event) => [event.name, event.data.object.id])).toEqual([
      ['charge.created', first],
      ['charge.captured', first],
    ]);
    expect(received.map(({ headers }) => headers['webhook-id'])).toEqual(events.map((event) => event.id));
    expect(() => Payframe.webhooks.constructEvent(received[0]!.body, received[0]!.headers, `whsec_${Buffer.alloc(32).toString('base64')}`)).toThrow(
      SignatureVerificationError,
    );

    // The server goes away and comes back on the same store and port; events of the meantime still arrive, once.
    await server.stop();
    server = await startServer({}, { dataDir: server.dataDir, port });
    payframe = new Payframe(secretKey, { apiBase: server.url });
    const second = await createCharge(payframe);
    await listen.waitForOutput(/Connected again, resuming after evt_/);
    await payframe.charges.capture(second);
    await receivedCount(4);
    const later = received.slice(2).map(({ body, headers }) => Payframe.webhooks.constructEvent(body, headers, secret));
    expect(later.map((event) => [event.name, event.data.object.id])).toEqual([
      ['charge.created', second],
      ['charge.captured', second],
    ]);
    expect(new Set(received.map(({ headers }) => headers['webhook-id'])).size).toBe(4);
  });

  it('says why it cannot reach the stream or the receiver, not just "fetch failed"', async () => {
    const { secretKey } = await createKeys(server.dataDir, 'listen-unreachable');
    const nowhere = await freePort('127.0.0.1');
    const unreachable = spawnCli(['listen', '--forward-to', receiverUrl, '--api-key', secretKey, '--api-base', `http://127.0.0.1:${nowhere}`]);
    try {
      await unreachable.waitForOutput(
        new RegExp(`Cannot reach the stream \\(fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${nowhere}\\); connecting again`),
      );
    } finally {
      await unreachable.stop();
    }

    const toNowhere = spawnCli(['listen', '--forward-to', `http://127.0.0.1:${nowhere}/webhooks`, '--api-key', secretKey, '--api-base', server.url]);
    try {
      await toNowhere.waitForOutput(/Ready: listening for events/);
      await createCharge(new Payframe(secretKey, { apiBase: server.url }));
      await toNowhere.waitForOutput(new RegExp(`<-- failed: fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${nowhere}`));
    } finally {
      await toNowhere.stop();
    }
  });
});
