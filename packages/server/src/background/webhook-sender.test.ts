import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import type { WebhookHeaders } from '@payframe/contract/webhook-signing';
import { afterEach, describe, expect, it } from 'vitest';
import { type WebhookSender, webhookSender } from './webhook-sender.ts';

/** The sender against real node:http receivers on 127.0.0.1, with a short attempt timeout. */

const TIMEOUT_MS = 400;
const HEADERS: WebhookHeaders = { 'webhook-id': 'evt_1', 'webhook-timestamp': '1763800000', 'webhook-signature': 'v1,c2lnbmF0dXJl' };

type Seen = { url: string; headers: IncomingMessage['headers']; body: string; socket: Socket };

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const seen: Seen[] = [];
  const closedSockets: Socket[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), socket: request.socket });
      answer(request, response);
    });
  });
  server.on('connection', (socket: Socket) => socket.on('close', () => closedSockets.push(socket)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, port, seen, closedSockets };
}

/** A port nothing listens on any more. */
async function closedPort(): Promise<number> {
  const server = createNetServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

function sender(): WebhookSender {
  const made = webhookSender({ timeoutMs: TIMEOUT_MS });
  cleanups.push(() => made.close());
  return made;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('webhook sender', () => {
  it('POSTs the body and headers as given, and reuses the connection for the next attempt', async () => {
    const target = await receiver((_request, response) => response.writeHead(204).end());
    const send = sender();
    const body = '{"type":"event","id":"evt_1","name":"charge.created"}';
    expect(await send.send({ url: `${target.url}/hooks?shop=1`, mode: 'test' }, HEADERS, body)).toEqual({ statusCode: 204, error: null });
    // The status is known before the answer has been read to its end: the connection is free a turn later.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await send.send({ url: `${target.url}/hooks?shop=1`, mode: 'test' }, HEADERS, body)).toEqual({ statusCode: 204, error: null });
    expect(target.seen).toHaveLength(2);
    const [first, second] = target.seen;
    expect(first?.url).toBe('/hooks?shop=1');
    expect(first?.body).toBe(body);
    expect(first?.headers).toMatchObject({
      ...HEADERS,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'user-agent': 'Payframe-Webhooks',
    });
    expect(second?.socket).toBe(first?.socket);
  });

  it('a redirect is the answer: its target never hears of it', async () => {
    const elsewhere = await receiver((_request, response) => response.writeHead(200).end());
    const target = await receiver((_request, response) => response.writeHead(307, { location: elsewhere.url }).end());
    expect(await sender().send({ url: target.url, mode: 'test' }, HEADERS, '{}')).toEqual({ statusCode: 307, error: null });
    expect(elsewhere.seen).toHaveLength(0);
  });

  it('no answer within the timeout fails the attempt and closes its connection', async () => {
    const target = await receiver(() => {});
    const started = Date.now();
    expect(await sender().send({ url: target.url, mode: 'test' }, HEADERS, '{}')).toEqual({ statusCode: null, error: 'timeout: no answer within 0.4 s' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    await until(() => target.closedSockets.length === 1, 'the connection to close');
  });

  it('an answer whose body trickles counts its status at once, and its connection is cut at the timeout', async () => {
    const target = await receiver((_request, response) => {
      response.writeHead(200);
      const drip = setInterval(() => response.write('.'), 20);
      response.on('close', () => clearInterval(drip));
    });
    const started = Date.now();
    expect(await sender().send({ url: target.url, mode: 'test' }, HEADERS, '{}')).toEqual({ statusCode: 200, error: null });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS);
    await until(() => target.closedSockets.length === 1, 'the connection to be cut');
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
  });

  it('an answer with more than 64 KiB of body is not read to its end: the connection is dropped', async () => {
    const target = await receiver((_request, response) => {
      response.writeHead(200);
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pour = setInterval(() => response.write(chunk), 1);
      response.on('close', () => clearInterval(pour));
    });
    expect(await sender().send({ url: target.url, mode: 'test' }, HEADERS, '{}')).toEqual({ statusCode: 200, error: null });
    await until(() => target.closedSockets.length === 1, 'the connection to be dropped');
  });

  it('a refused connection, and live targets that are not public, are failed attempts', async () => {
    const target = await receiver((_request, response) => response.writeHead(200).end());
    const send = sender();
    expect(await send.send({ url: `http://127.0.0.1:${await closedPort()}/`, mode: 'test' }, HEADERS, '{}')).toEqual({
      statusCode: null,
      error: 'connection refused',
    });
    expect(await send.send({ url: `https://127.0.0.1:${target.port}/`, mode: 'live' }, HEADERS, '{}')).toEqual({
      statusCode: null,
      error: 'refused: the address is 127.0.0.1, a loopback address',
    });
    expect(await send.send({ url: `https://localhost:${target.port}/`, mode: 'live' }, HEADERS, '{}')).toMatchObject({
      statusCode: null,
      error: expect.stringMatching(/^refused: localhost resolves to .*(loopback|unspecified)/),
    });
    expect(await send.send({ url: target.url, mode: 'live' }, HEADERS, '{}')).toEqual({ statusCode: null, error: 'refused: live endpoints must be https' });
    expect(target.seen).toHaveLength(0);
  });

  it('close() cuts the attempts in flight: each answers that the server stopped', async () => {
    const target = await receiver(() => {});
    const send = webhookSender({ timeoutMs: 60_000 });
    const attempt = send.send({ url: target.url, mode: 'test' }, HEADERS, '{}');
    await until(() => target.seen.length === 1, 'the request to arrive');
    send.close();
    expect(await attempt).toEqual({ statusCode: null, error: 'interrupted: the server stopped during the attempt' });
    await until(() => target.closedSockets.length === 1, 'the connection to close');
  });
});
