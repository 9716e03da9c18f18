import { Readable } from 'node:stream';
import Fastify, { type FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { writeReadAnswersTogether } from './read-answers.ts';

/**
 * Whether each answer had been written, and whether it had been handed to Node at all, when its
 * handler's `send` returned; and whether it had been written once the turn ended.
 */
async function whenWritten(
  method: 'GET' | 'POST',
  payload: () => unknown,
  requests = 1,
): Promise<{ atSend: boolean[]; handedAtSend: boolean[]; atTurnEnd: boolean[] }> {
  const app = Fastify();
  writeReadAnswersTogether(app);
  const atSend: boolean[] = [];
  const handedAtSend: boolean[] = [];
  const atTurnEnd: boolean[] = [];
  const replies: FastifyReply[] = [];
  app.route({
    method,
    url: '/x',
    handler: (_request, reply) => {
      reply.header('content-type', 'application/json').send(payload());
      atSend.push(reply.raw.writableEnded);
      // A string's headers are written at once; a stream's are set on Node's response, written with its first data.
      handedAtSend.push(reply.raw.headersSent || reply.raw.hasHeader('content-type'));
      replies.push(reply);
      // Runs after every setImmediate queued during this turn: the held answers' release among them.
      if (replies.length === requests) setImmediate(() => atTurnEnd.push(...replies.map((r) => r.raw.writableEnded)));
      return reply;
    },
  });
  await Promise.all(Array.from({ length: requests }, () => app.inject({ method, url: '/x' })));
  // The answers may all be out before the handler's check has run.
  await new Promise((resolve) => setImmediate(resolve));
  await app.close();
  return { atSend, handedAtSend, atTurnEnd };
}

describe('answers to reads', () => {
  it('are held to the end of the event loop’s turn, then all written', async () => {
    const { atSend, handedAtSend, atTurnEnd } = await whenWritten('GET', () => '{"ok":true}', 3);
    expect(atSend).toEqual([false, false, false]);
    expect(handedAtSend).toEqual([false, false, false]);
    expect(atTurnEnd).toEqual([true, true, true]);
  });

  it('are not held for writes, whose answers leave together with their batch’s sync', async () => {
    const { atSend, handedAtSend } = await whenWritten('POST', () => '{"ok":true}');
    expect(atSend).toEqual([true]);
    expect(handedAtSend).toEqual([true]);
  });

  it('are not held when the answer is a stream', async () => {
    const { handedAtSend } = await whenWritten('GET', () => Readable.from(['a']));
    expect(handedAtSend).toEqual([true]);
  });

  it('hand a failure to write one answer to Fastify’s error handling, and still write the others', async () => {
    const app = Fastify();
    writeReadAnswersTogether(app);
    // Node refuses a header value with a line break when the answer is written, not when it is set.
    app.get('/bad', (_request, reply) => reply.header('x-note', 'a\nb').send('{"ok":false}'));
    app.get('/good', (_request, reply) => reply.header('content-type', 'application/json').send('{"ok":true}'));
    const [bad, good] = await Promise.all([app.inject('/bad'), app.inject('/good')]);
    await app.close();
    expect(bad.statusCode).toBe(500);
    expect(good.statusCode).toBe(200);
    expect(good.json()).toEqual({ ok: true });
  });
});
