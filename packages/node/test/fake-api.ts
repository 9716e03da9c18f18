import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Seen = { method: string; url: string; idempotencyKey: string | undefined; body: string };
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

let server: Server | undefined;

/** A tiny stand-in for the API that answers each request with the next of `answers` (the last one repeats). */
export async function fakeApi(answers: Array<Answer | 'hang up'>): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const started = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', idempotencyKey: request.headers['idempotency-key'] as string | undefined, body });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)];
      if (answer === 'hang up' || answer === undefined) {
        request.socket.destroy();
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  server = started;
  await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(started.address() as AddressInfo).port}`, seen };
}

/** For afterEach: closes the fake API of the test that just ran. */
export async function closeFakeApi(): Promise<void> {
  const running = server;
  server = undefined;
  if (running) await new Promise((resolve) => running.close(resolve));
}
