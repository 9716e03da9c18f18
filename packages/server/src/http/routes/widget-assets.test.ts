import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installErrorHandler } from '../error-handler.ts';
import { widgetAssetRoutes } from './widget-assets.ts';

// The headers a real server adds (helmet, no-store) are checked by the browser tests against `payframe serve`.
const apps: FastifyInstance[] = [];
const dirs: string[] = [];

async function serve(distDir: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  installErrorHandler(app);
  await app.register(widgetAssetRoutes(distDir));
  apps.push(app);
  return app;
}

const SCRIPT_HASH = 'sha256-c2NyaXB0IGhhc2ggb2YgdGhlIGZyYW1lIHBhZ2UhIQ==';
const STYLE_HASH = 'sha256-c3R5bGUgaGFzaCBvZiB0aGUgZnJhbWUgcGFnZSEhIQ==';

function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'payframe-dist-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'payframe.js'), 'window.Payframe=1;');
  writeFileSync(join(dir, 'payframe.js.gz'), gzipSync('window.Payframe=1;'));
  writeFileSync(join(dir, 'frame.html'), '<!doctype html>');
  writeFileSync(join(dir, 'frame-csp.json'), JSON.stringify({ scripts: [SCRIPT_HASH], styles: [STYLE_HASH] }));
  return dir;
}

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('widget asset routes', () => {
  it('answers a clear JSON error when the widget is not built', async () => {
    const app = await serve(join(tmpdir(), 'payframe-no-such-dist'));
    const response = await app.inject('/v2/js/payframe.js');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ type: 'api_error', error: { code: 'INTERNAL_ERROR', message: expect.stringContaining('not built') } });
  });

  it('serves the loader short-cached, gzipped when the client takes it', async () => {
    const app = await serve(fakeDist());
    const plain = await app.inject('/v2/js/payframe.js');
    expect(plain.body).toBe('window.Payframe=1;');
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=300');
    const gzipped = await app.inject({ url: '/v2/js/payframe.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(gzipped.headers['cache-control']).toBe('public, max-age=300');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe('window.Payframe=1;');
    expect(gzipped.headers.vary).toBe('accept-encoding');
  });

  it("serves the frame page revalidated, allowing its inline script and style by the build's hashes only", async () => {
    const app = await serve(fakeDist());
    const page = await app.inject('/v2/widget/frame.html');
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe('<!doctype html>');
    expect(page.headers['cache-control']).toBe('no-cache');
    const directives = String(page.headers['content-security-policy']).split('; ');
    expect(directives).toContain(`script-src '${SCRIPT_HASH}'`);
    expect(directives).toContain(`style-src '${STYLE_HASH}'`);
    expect(directives).toContain('frame-ancestors *');
  });

  it('answers the frame page as not built when the build left no hashes for it', async () => {
    const dir = fakeDist();
    rmSync(join(dir, 'frame-csp.json'));
    const app = await serve(dir);
    const page = await app.inject('/v2/widget/frame.html');
    expect(page.statusCode).toBe(500);
    expect(page.json().error.message).toContain('not built');
  });

  it('serves no files of the build beyond the loader and the frame page', async () => {
    const app = await serve(fakeDist());
    for (const url of ['/v2/widget/frame-csp.json', '/v2/widget/assets/frame-AbCd1234.js', '/v2/widget/..%2Fpayframe.js']) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(404);
    }
  });
});
