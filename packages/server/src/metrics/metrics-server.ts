import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './registry.ts';

export type MetricsServer = { url: string; close(): Promise<void> };

/**
 * `GET /metrics` on a port of its own, bound to the loopback interface only: a scraper on the
 * same machine (or a sidecar) reads it without a token, and nothing off the machine can reach it.
 */
export async function startMetricsServer(metrics: Metrics, port: number): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper's keep-alive connection must not hold the stop.
        server.closeAllConnections();
      }),
  };
}
