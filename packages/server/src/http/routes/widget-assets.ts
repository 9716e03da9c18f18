import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { PayframeError } from '@payframe/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The loader's URL never changes, so browsers only keep it briefly; hashed assets never change at all. */
const CACHE = {
  loader: 'public, max-age=300',
  page: 'no-cache',
  hashed: 'public, max-age=31536000, immutable',
};

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

/** The frame page is embedded by merchants on any origin, and loads nothing but its own files. */
const FRAME_HELMET = {
  frameguard: false,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
      frameAncestors: ['*'],
    },
  },
} as const;

/** Where `npm ci` (the root `prepare` script) builds the widget. */
export function widgetDistDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@payframe/widget/package.json')), 'dist');
}

/** Serves packages/widget/dist: the loader, the frame page and its hashed assets, precompressed when the client takes gzip. */
export function widgetAssetRoutes(distDir: string = widgetDistDir()) {
  return async (app: FastifyInstance) => {
    const cachedFor = (cacheControl: string) => ({
      schema: { hide: true },
      // A route's hooks run after the app's `no-store`, which is meant for API answers; errors keep it.
      onSend: async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        if (reply.statusCode === 200) reply.header('cache-control', cacheControl);
        return payload;
      },
    });

    async function send(request: FastifyRequest, reply: FastifyReply, file: string) {
      if (!existsSync(distDir)) {
        throw new PayframeError('INTERNAL_ERROR', 'The card widget is not built: run `npm run build -w @payframe/widget` (npm ci runs it).');
      }
      const path = join(distDir, file);
      const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')) && existsSync(`${path}.gz`);
      let body: Buffer;
      try {
        body = await readFile(gzip ? `${path}.gz` : path);
      } catch {
        throw new PayframeError('ROUTE_NOT_FOUND');
      }
      if (gzip) reply.header('content-encoding', 'gzip');
      return reply
        .header('vary', 'accept-encoding')
        .type(CONTENT_TYPES[extname(file)] ?? 'application/octet-stream')
        .send(body);
    }

    app.get('/v2/js/payframe.js', cachedFor(CACHE.loader), (request, reply) => send(request, reply, 'payframe.js'));
    app.get('/v2/widget/frame.html', { ...cachedFor(CACHE.page), helmet: FRAME_HELMET }, (request, reply) => send(request, reply, 'frame.html'));
    app.get<{ Params: { file: string } }>('/v2/widget/assets/:file', cachedFor(CACHE.hashed), (request, reply) => {
      // Built names only (frame-3fA9_x.js): nothing that could climb out of dist/.
      if (!/^[\w-]+\.(js|css)$/.test(request.params.file)) throw new PayframeError('ROUTE_NOT_FOUND');
      return send(request, reply, `assets/${request.params.file}`);
    });
  };
}
