import { Readable } from 'node:stream';
import { ErrorBodySchema } from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Store } from '../../services/context.ts';
import { eventStreams, type StreamedEvent } from '../../services/event-stream.ts';
import { authOf } from '../request-context.ts';
import { refuseOtherMethods } from './refuse-other-methods.ts';

/** A comment line at least this often keeps proxies and clients from timing the stream out. */
const KEEP_ALIVE_MS = 10_000;
/** Events waiting for a client that does not read: past this, its stream ends and it resumes with Last-Event-ID. */
const MAX_QUEUED = 10_000;

/**
 * Secret realm: GET /v2/events/stream, the live stream of the key's account and mode as server-sent
 * events (docs/stream.md). Not rate-limited by the request limit: one request holds the stream for
 * as long as it lasts; at most 10 are open per account and mode on an instance (services/event-stream.ts),
 * all fed by one poll. The server's stop ends every open stream at once (preClose), so it never waits on them.
 */
export function eventStreamRoutes(store: Store) {
  return async (app: FastifyInstance) => {
    const open = new Set<AbortController>();
    const streams = eventStreams(store, (error, failing) => {
      if (!failing) app.log.warn({ err: error }, 'event stream: reading events failed; retrying');
    });
    app.addHook('preClose', async () => {
      streams.stop();
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
        const controller = new AbortController();
        const queue = eventQueue(controller);
        // An unknown Last-Event-ID, or one stream too many, is refused here, as JSON, before the stream starts.
        const subscription = await streams.open({ accountId, mode }, lastEventId, queue.push);
        open.add(controller);
        const end = () => {
          controller.abort();
          open.delete(controller);
          subscription.close();
        };
        if (reply.raw.destroyed) end();
        reply.raw.on('close', end);
        return (
          reply
            .type('text/event-stream')
            .header('x-accel-buffering', 'no')
            // Nothing follows a stream on its connection: once it ends, the connection goes too.
            .header('connection', 'close')
            .send(Readable.from(frames(queue, controller.signal)))
        );
      },
    );
    refuseOtherMethods(app, '/events/stream', ['GET']);
  };
}

/** A stream's events waiting to be written; `take` waits for the next ones, at most `ms`. */
function eventQueue(controller: AbortController) {
  let waiting: StreamedEvent[] = [];
  let wake: (() => void) | undefined;
  return {
    push(events: StreamedEvent[]): void {
      waiting.push(...events);
      if (waiting.length > MAX_QUEUED) controller.abort();
      wake?.();
    },
    async take(ms: number, signal: AbortSignal): Promise<StreamedEvent[]> {
      if (waiting.length === 0 && !signal.aborted) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            wake = undefined;
            resolve();
          };
          const timer = setTimeout(done, ms);
          signal.addEventListener('abort', done);
          wake = done;
        });
      }
      const taken = waiting;
      waiting = [];
      return taken;
    },
  };
}

async function* frames(queue: ReturnType<typeof eventQueue>, signal: AbortSignal): AsyncGenerator<string> {
  // The first bytes send the 200 and its headers at once, before any event exists.
  yield ': stream open\n\n';
  while (!signal.aborted) {
    const events = await queue.take(KEEP_ALIVE_MS, signal);
    if (signal.aborted) return;
    if (events.length === 0) yield ': keep-alive\n\n';
    else yield events.map(frame).join('');
  }
}

function frame(event: StreamedEvent): string {
  // The body is JSON without line breaks: one data line.
  return `id: ${event.id}\nevent: ${event.name}\ndata: ${event.body}\n\n`;
}
