import type { FastifyInstance } from 'fastify';

/** The origin an in-process server's URLs carry: nothing listens there; requests go through inject(). */
export const IN_PROCESS_ORIGIN = 'http://payframe.in-process.test';

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A fetch that hands each request to fastify's inject(): the request and the answer are the same
 * bytes and headers a socket would carry (multipart boundaries and all, since the body is encoded
 * by a real Request), without a socket or a second process.
 */
export function injectFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const answer = await app.inject({
      method: request.method as 'GET',
      url: `${url.pathname}${url.search}`,
      headers: { ...Object.fromEntries(request.headers), host: url.host },
      ...(payload ? { payload } : {}),
    });
    const location = answer.headers.location;
    if (location !== undefined && answer.statusCode >= 300 && answer.statusCode < 400 && request.redirect !== 'manual') {
      // Following it would leave the in-process server (a shop's return URL): the test says what it expects.
      throw new Error(`${request.method} ${url.pathname} redirects to ${String(location)}: pass redirect: 'manual' to see the redirect`);
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (Array.isArray(value)) for (const each of value) headers.append(name, each);
      else if (value !== undefined) headers.set(name, String(value));
    }
    const body = NULL_BODY_STATUSES.has(answer.statusCode) || request.method === 'HEAD' ? null : new Uint8Array(answer.rawPayload);
    return new Response(body, { status: answer.statusCode, headers });
  };
}
