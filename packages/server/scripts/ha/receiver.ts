import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Payframe } from '@payframe/node';

export type Receiver = { url: string; delivered: Map<string, number>; badSignatures: number; close(): Promise<void>; setSecret(secret: string): void };

/** The merchant's webhook endpoint: verifies each delivery's signature and counts deliveries per event id. */
export async function startReceiver(): Promise<Receiver> {
  const delivered = new Map<string, number>();
  let secret = '';
  const receiver: Receiver = {
    url: '',
    delivered,
    badSignatures: 0,
    setSecret: (value) => (secret = value),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const event = Payframe.webhooks.constructEvent(Buffer.concat(chunks).toString('utf8'), request.headers, secret);
        delivered.set(event.id, (delivered.get(event.id) ?? 0) + 1);
        response.writeHead(200).end('ok');
      } catch {
        receiver.badSignatures += 1;
        response.writeHead(400).end('bad signature');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return receiver;
}
