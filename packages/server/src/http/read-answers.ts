import type { FastifyInstance, onSendHookHandler } from 'fastify';

/**
 * Answers to reads wait for the end of the event loop's turn, then go out back to back.
 *
 * A read is answered in the turn its request arrived, so a busy server writes its reads' answers
 * one at a time, a little apart. A client waiting on another core sleeps between them, and each
 * answer's write then pays to wake it (in a virtual machine, an interrupt to that core), inside the
 * server's `writev`. Written together, the first answer wakes the client and the rest reach it
 * awake. Writes are not held: their answers already leave together when their batch's sync
 * completes, and held as well they waited behind the requests read in the same turn, which measured
 * slower for tokens and the flow (docs/performance.md).
 */
export function writeReadAnswersTogether(app: FastifyInstance): void {
  let held: (() => void)[] = [];
  const release = (): void => {
    const now = held;
    held = [];
    for (const send of now) send();
  };
  // A callback hook: an async one costs a promise per request.
  const hold: onSendHookHandler = (_request, reply, payload, done) => {
    // Streams (the event stream, files) start at once: only whole answers are held.
    if (typeof payload !== 'string') return done(null, payload);
    held.push(() => {
      // Called from inside the hook, a throw while the answer is written (a header Node refuses)
      // reaches Fastify's error handling through its hook runner; from here it is handed there, and
      // one answer's failure keeps none of the others waiting.
      try {
        done(null, payload);
      } catch (error) {
        try {
          done(error as Error);
        } catch {
          reply.raw.destroy();
        }
      }
    });
    if (held.length === 1) setImmediate(release);
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('GET')) return;
    const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...own, hold];
  });
}
