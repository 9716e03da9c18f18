import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { DASHBOARD_API_PREFIX, PayframeError } from '@payframe/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { browserAssetsDir } from './browser-assets-dir.ts';

/**
 * The dashboard's pages load only their own files and talk only to this server; nothing inline, and
 * no page of another origin may frame them.
 */
export const DASHBOARD_HELMET = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      // data: for the page's empty icon only: the app shows no image of its own.
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
} as const;

const HASHED = 'public, max-age=31536000, immutable';

/**
 * packages/dashboard/dist through @fastify/static, with the build's precompressed variants:
 * index.html for /dashboard and every page path (the app routes in the browser), and the
 * content-hashed assets, cached for good.
 */
export function dashboardAssetRoutes(distDir: string = browserAssetsDir('@payframe/dashboard')) {
  return async (app: FastifyInstance) => {
    await app.register(fastifyStatic, { root: distDir, serve: false, preCompressed: true, cacheControl: false });

    function send(reply: FastifyReply, file: string) {
      if (!existsSync(distDir)) {
        throw new PayframeError('INTERNAL_ERROR', 'The dashboard is not built: run `npm run build -w @payframe/dashboard` (npm ci runs it).');
      }
      if (!existsSync(join(distDir, file))) throw new PayframeError('ROUTE_NOT_FOUND');
      return reply.sendFile(file);
    }

    const page = {
      schema: { hide: true },
      helmet: DASHBOARD_HELMET,
      // The page names its assets by hash: it must be revalidated, never served stale.
      onSend: async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        if (reply.statusCode === 200) reply.header('cache-control', 'no-cache');
        return payload;
      },
    };
    app.get('/dashboard', page, (_request, reply) => send(reply, 'index.html'));
    app.get('/dashboard/*', page, (request, reply) => {
      // Unknown API paths are the API's 404, not a page.
      if (request.url.startsWith(`${DASHBOARD_API_PREFIX}/`) || request.url === DASHBOARD_API_PREFIX) throw new PayframeError('ROUTE_NOT_FOUND');
      return send(reply, 'index.html');
    });
    app.get<{ Params: { file: string } }>(
      '/dashboard/assets/:file',
      {
        schema: { hide: true },
        helmet: DASHBOARD_HELMET,
        onSend: async (_request, reply, payload) => {
          if (reply.statusCode === 200) reply.header('cache-control', HASHED);
          if (String(reply.getHeader('content-type')).startsWith('application/javascript')) reply.type('text/javascript; charset=utf-8');
          return payload;
        },
      },
      (request, reply) => {
        // Built names only (index-DSbElS07.js): nothing that could climb out of dist/.
        if (!/^[\w-]+\.(js|css)$/.test(request.params.file)) throw new PayframeError('ROUTE_NOT_FOUND');
        return send(reply, `assets/${request.params.file}`);
      },
    );
  };
}
