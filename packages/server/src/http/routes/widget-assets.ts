import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PayframeError } from '@payframe/contract';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { packageDistDir } from './package-dist.ts';

/** The loader's URL never changes, so browsers only keep it briefly; hashed assets never change at all. */
const CACHE = {
  loader: 'public, max-age=300',
  page: 'no-cache',
  hashed: 'public, max-age=31536000, immutable',
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

/**
 * Serves packages/widget/dist through @fastify/static: the loader, the frame page and its hashed assets,
 * with the build's precompressed variants for clients that take them.
 */
export function widgetAssetRoutes(distDir: string = packageDistDir('@payframe/widget')) {
  return async (app: FastifyInstance) => {
    // Cache headers are per route (below); etag and last-modified come from the library.
    await app.register(fastifyStatic, { root: distDir, serve: false, preCompressed: true, cacheControl: false });

    const cachedFor = (cacheControl: string) => ({
      schema: { hide: true },
      // A route's hooks run after the app's `no-store`, which is meant for API answers; errors keep it.
      onSend: async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        if (reply.statusCode === 200) reply.header('cache-control', cacheControl);
        // RFC 9239 names JavaScript text/javascript; the library's mime table still says application/javascript.
        if (String(reply.getHeader('content-type')).startsWith('application/javascript')) reply.type('text/javascript; charset=utf-8');
        return payload;
      },
    });

    function send(reply: FastifyReply, file: string) {
      if (!existsSync(distDir)) {
        throw new PayframeError('INTERNAL_ERROR', 'The card widget is not built: run `npm run build -w @payframe/widget` (npm ci runs it).');
      }
      // Checked here so a missing file is the API's JSON 404 whichever not-found handler the scope has.
      if (!existsSync(join(distDir, file))) throw new PayframeError('ROUTE_NOT_FOUND');
      return reply.sendFile(file);
    }

    app.get('/v2/js/payframe.js', cachedFor(CACHE.loader), (_request, reply) => send(reply, 'payframe.js'));
    app.get('/v2/widget/frame.html', { ...cachedFor(CACHE.page), helmet: FRAME_HELMET }, (_request, reply) => send(reply, 'frame.html'));
    app.get<{ Params: { file: string } }>('/v2/widget/assets/:file', cachedFor(CACHE.hashed), (request, reply) => {
      // Built names only (frame-3fA9_x.js): nothing that could climb out of dist/.
      if (!/^[\w-]+\.(js|css)$/.test(request.params.file)) throw new PayframeError('ROUTE_NOT_FOUND');
      return send(reply, `assets/${request.params.file}`);
    });
  };
}
