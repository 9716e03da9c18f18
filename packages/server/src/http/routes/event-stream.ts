import { setTimeout as sleep } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { ErrorBodySchema } from '@payframe/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Store } from '../../services/context.ts';
import { type EventFeed, FEED_BATCH, openEventFeed, type StreamedEvent } from '../../services/event-stream.ts';
import { authOf } from '../request-context.ts';
import { refuseOtherMethods } from './refuse-other-methods.ts';

/** How often each open stream asks the database for new events: cheap, one indexed range read. */
const POLL_MS = 300;
/** A comment line at least this often keeps proxies and clients from timing the stream out. */
const KEEP_ALIVE_MS = 10_000;

/**
 * Secret realm: GET /v2/events/stream, the live stream of the key's account and mode as server-sent
 * events (docs/stream.md). Not rate-limited: one request holds the stream for as long as it lasts.
 * The server's stop ends every open stream at once (preClose), so it never waits on them.
 */
export function eventStreamRoutes(store: Store) {
  return async (app: FastifyInstance) => {
    const open = new Set<AbortController>();
    app.addHook('preClose', async () => {
      for (const controller of open) controller.abort();
    });

    app.get(
      '/events/stream',
      {
        config: { rateLimit: false },
        exposeHeadRoute: false,
        schema: {
          summary: 'Stream events as they commit (text/event-stream; resumes after Last-Event-ID)',
          response: {
            200: {
              description: 'Server-sent events: `id:` the event id, `event:` its name, `data:` the event JSON on one line',
              content: { 'text/event-stream': { schema: z.string() } },
            },
            default: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const { accountId, mode } = authOf(request);
        const header = request.headers['last-event-id'];
        // An empty Last-Event-ID is what a client sends with no event seen yet: none.
        const lastEventId = (Array.isArray(header) ? header[0] : header) || undefined;
        // An unknown Last-Event-ID is refused here, as JSON, before the stream starts.
        const feed = await openEventFeed(store, { accountId, mode }, lastEventId);

        const controller = new AbortController();
        open.add(controller);
        reply.raw.on('close', () => {
          controller.abort();
          open.delete(controller);
        });
        return reply
          .type('text/event-stream')
          .header('x-accel-buffering', 'no')
          // Nothing follows a stream on its connection: once it ends, the connection goes too.
          .header('connection', 'close')
          .send(Readable.from(frames(feed, controller.signal, request.log)));
      },
    );
    refuseOtherMethods(app, '/events/stream', ['GET']);
  };
}

async function* frames(feed: EventFeed, signal: AbortSignal, log: FastifyBaseLogger): AsyncGenerator<string> {
  // The first bytes send the 200 and its headers at once, before any event exists.
  yield ': stream open\n\n';
  // Keep-alive spacing is transport timing, not the API's time: a monotonic clock, not the services' one.
  let lastWrite = performance.now();
  let failing = false;
  while (!signal.aborted) {
    let events: StreamedEvent[] = [];
    try {
      events = await feed.poll();
      if (failing) log.info('event stream: reading events again');
      failing = false;
    } catch (error) {
      // The database is away for a moment: keep the stream, and try again at the next poll.
      if (!failing) log.warn({ err: error }, 'event stream: reading events failed; retrying');
      failing = true;
    }
    for (const event of events) yield frame(event);
    if (events.length > 0) lastWrite = performance.now();
    if (events.length === FEED_BATCH) continue;
    if (performance.now() - lastWrite >= KEEP_ALIVE_MS) {
      yield ': keep-alive\n\n';
      lastWrite = performance.now();
    }
    try {
      await sleep(POLL_MS, undefined, { signal });
    } catch {
      return;
    }
  }
}

function frame(event: StreamedEvent): string {
  // The body is JSON without line breaks: one data line.
  return `id: ${event.id}\nevent: ${event.name}\ndata: ${event.body}\n\n`;
}
