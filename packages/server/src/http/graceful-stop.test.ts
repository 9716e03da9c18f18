import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installErrorHandler } from './error-handler.ts';
import { turnAwayWhileStopping } from './graceful-stop.ts';

// The whole stop, over real processes and connections, is test/graceful-stop.test.ts.
let stopping = false;
const app = Fastify({ logger: false, return503OnClosing: false });
installErrorHandler(app);
turnAwayWhileStopping(app, () => stopping);
app.get('/work', async () => ({ done: true }));

afterEach(() => {
  stopping = false;
});

describe('turnAwayWhileStopping', () => {
  it('lets requests through and keeps connections while running', async () => {
    const response = await app.inject('/work');
    expect(response.statusCode).toBe(200);
    expect(response.headers.connection).not.toBe('close');
  });

  it('turns a request away with an error-shaped 503 and Retry-After once stopping, and closes its connection', async () => {
    stopping = true;
    const response = await app.inject('/work');
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.headers.connection).toBe('close');
    expect(response.json()).toEqual({
      type: 'api_error',
      message: 'The server is stopping; retry shortly.',
      error: { code: 'SERVICE_UNAVAILABLE', message: 'The server is stopping; retry shortly.' },
    });
  });
});
