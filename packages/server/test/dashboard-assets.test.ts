import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

const dist = join(dirname(createRequire(import.meta.url).resolve('@payframe/dashboard/package.json')), 'dist');

describe('the dashboard app at /dashboard', () => {
  it('answers index.html for /dashboard, /dashboard/ and every page path, under a CSP with nothing inline', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/login', '/dashboard/charges/C1234567890123456', '/dashboard/settings']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await response.text()).toContain('<div id="app"></div>');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
  });

  it('serves the hashed assets for a year, immutable, gzipped for clients that take it', async () => {
    const script = readdirSync(join(dist, 'assets')).find((name) => /^index-.*\.js$/.test(name));
    const response = await fetch(`${server.url}/dashboard/assets/${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    const missing = await fetch(`${server.url}/dashboard/assets/nope-123.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('answers an unknown API path with the JSON 404, not the page', async () => {
    const response = await fetch(`${server.url}/dashboard/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as any).error.code).toBe('ROUTE_NOT_FOUND');
  });
});
