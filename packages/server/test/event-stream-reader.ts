import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';

/** One frame: its `id:` and `event:` lines, and its `data:` both as sent and parsed. */
export type StreamEvent = { id: string; event: string; raw: string; data: any };

/**
 * One open GET /v2/events/stream over real HTTP: collects every event frame as it arrives.
 * Resolves once the response's headers are in (the server has fixed where the stream starts).
 */
export async function openStream(baseUrl: string, secretKey: string, lastEventId?: string) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/v2/events/stream`, {
    headers: { 'x-api-key': secretKey, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const done = (async () => {
    if (!response.ok || !response.body) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    try {
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        const message = value as EventSourceMessage;
        events.push({ id: message.id ?? '', event: message.event ?? 'message', raw: message.data, data: JSON.parse(message.data) });
        for (const wake of waiters) wake();
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    } finally {
      ended = true;
      for (const wake of waiters) wake();
    }
  })();

  return {
    response,
    events,
    /** Resolves once the server has ended the stream. */
    done,
    get ended() {
      return ended;
    },
    /** Resolves once `count` events have arrived in all; fails after `timeoutMs`. */
    async waitFor(count: number, timeoutMs = 20_000): Promise<StreamEvent[]> {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        if (ended) throw new Error(`the stream ended after ${events.length} of ${count} events`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`only ${events.length} of ${count} events within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiters.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
      return events.slice(0, count);
    },
    /** Drops the connection, as a client that goes away does. */
    close(): void {
      controller.abort();
    },
  };
}

export type OpenStream = Awaited<ReturnType<typeof openStream>>;
