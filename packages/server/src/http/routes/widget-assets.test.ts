import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'payframe-dist-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'payframe.js'), 'window.Payframe=1;');
  writeFileSync(join(dir, 'payframe.js.gz'), gzipSync('window.Payframe=1;'));
  writeFileSync(join(dir, 'frame.html'), '<!doctype html>');
  writeFileSync(join(dir, 'assets', 'frame-AbCd1234.js'), 'console.log(1)');
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

  it('serves hashed assets as immutable, and nothing outside the built names', async () => {
    const app = await serve(fakeDist());
    const asset = await app.inject('/v2/widget/assets/frame-AbCd1234.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/v2/widget/assets/frame-missing1.js', '/v2/widget/assets/..%2Fpayframe.js', '/v2/widget/assets/frame.html']) {
      const response = await app.inject(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code).toBe('ROUTE_NOT_FOUND');
    }
  });
});
