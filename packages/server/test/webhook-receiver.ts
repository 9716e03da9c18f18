import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { id: string; timestamp: string; signature: string; contentType: string; body: string; at: number };

/** What the receiver does with the n-th request (1-based) it gets. */
export type Behaviour = (request: Received, n: number) => { status: number; headers?: Record<string, string> } | 'hang';

/**
 * A merchant's webhook endpoint on 127.0.0.1: records every POST with its raw body and the three
 * webhook-* headers, and how many attempts of one webhook-id were in flight at the same time.
 */
export async function startReceiver(behaviour: Behaviour = () => ({ status: 200 }), port = 0) {
  const received: Received[] = [];
  const inFlight = new Map<string, number>();
  const overlaps: string[] = [];
  const hanging = new Set<ServerResponse>();
  let current = behaviour;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const header = (name: string) => String(request.headers[name] ?? '');
      const entry: Received = {
        id: header('webhook-id'),
        timestamp: header('webhook-timestamp'),
        signature: header('webhook-signature'),
        contentType: header('content-type'),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(entry);
      const open = (inFlight.get(entry.id) ?? 0) + 1;
      inFlight.set(entry.id, open);
      if (open > 1) overlaps.push(entry.id);
      response.on('close', () => inFlight.set(entry.id, (inFlight.get(entry.id) ?? 1) - 1));
      const answer = current(entry, received.length);
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      // A little work per request widens the window in which two overlapping attempts would be seen.
      setTimeout(() => response.writeHead(answer.status, answer.headers).end('ok'), 5);
    });
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${bound}/webhooks`,
    port: bound,
    received,
    overlaps,
    setBehaviour(next: Behaviour) {
      current = next;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
