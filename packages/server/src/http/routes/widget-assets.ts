import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { PayframeError } from '@payframe/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { browserAssetsDir } from './browser-assets-dir.ts';

/** The loader's URL never changes, so browsers only keep it briefly; the frame page is revalidated on every mount. */
const CACHE = {
  loader: 'public, max-age=300',
  page: 'no-cache',
};

/** The build's hashes of the frame page's inline script and style (packages/widget/scripts/build.ts). */
const FRAME_CSP_FILE = 'frame-csp.json';
const sourceHash = z.string().regex(/^sha256-[A-Za-z0-9+/]+={0,2}$/);
const FrameHashes = z.object({ scripts: z.array(sourceHash).min(1), styles: z.array(sourceHash).min(1) });
type FrameHashes = z.infer<typeof FrameHashes>;

/**
 * The frame page is embedded by merchants on any origin, runs only the script and style the build
 * inlined into it (by hash: no 'unsafe-inline'), and talks to its own origin only.
 */
function frameContentSecurityPolicy(hashes: FrameHashes): string {
  const sources = (list: string[]) => list.map((hash) => `'${hash}'`).join(' ');
  return [
    "default-src 'self'",
    `script-src ${sources(hashes.scripts)}`,
    `style-src ${sources(hashes.styles)}`,
    "img-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
  ].join('; ');
}

/**
 * No X-Frame-Options, and no helmet CSP: the frame's own policy is set with the page, from the build's
 * hashes. No `Origin-Agent-Cluster: ?1` either: Chromium takes it as a hint to give the origin a process
 * of its own, learns it only from the response, and then throws away the renderer it had begun starting
 * for the frame and starts another (a slower cold mount). Without the header Chromium still keys
 * the agent cluster by origin (no document.domain), and site isolation still separates the frame from
 * any merchant on another site.
 */
const FRAME_HELMET = { frameguard: false, contentSecurityPolicy: false, originAgentCluster: false } as const;

/**
 * Serves packages/widget/dist through @fastify/static: the loader and the frame page, with the build's
 * precompressed variants for clients that take them.
 */
export function widgetAssetRoutes(distDir: string = browserAssetsDir('@payframe/widget')) {
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

    function notBuilt(): PayframeError {
      return new PayframeError('INTERNAL_ERROR', 'The card widget is not built: run `npm run build -w @payframe/widget` (npm ci runs it).');
    }

    function send(reply: FastifyReply, file: string) {
      if (!existsSync(distDir)) throw notBuilt();
      // Checked here so a missing file is the API's JSON 404 whichever not-found handler the scope has.
      if (!existsSync(join(distDir, file))) throw new PayframeError('ROUTE_NOT_FOUND');
      return reply.sendFile(file);
    }

    /** Read with each page, so that a rebuild under a running server never pairs a page with stale hashes. */
    function frameHashes(): FrameHashes {
      const path = join(distDir, FRAME_CSP_FILE);
      if (!existsSync(path)) throw notBuilt();
      return FrameHashes.parse(JSON.parse(readFileSync(path, 'utf8')));
    }

    app.get('/v2/js/payframe.js', cachedFor(CACHE.loader), (_request, reply) => send(reply, 'payframe.js'));
    app.get('/v2/widget/frame.html', { ...cachedFor(CACHE.page), helmet: FRAME_HELMET }, (_request, reply) => {
      reply.header('content-security-policy', frameContentSecurityPolicy(frameHashes()));
      return send(reply, 'frame.html');
    });
  };
}
