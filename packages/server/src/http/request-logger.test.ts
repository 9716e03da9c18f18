import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../logging.ts';
import { lazyRequestLogger } from './request-logger.ts';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  // pino writes synchronously to a plain stream: each line is there when the call returns.
  const logger = pino(loggerOptions(level), stream);
  return { logger, lines };
}

describe('lazyRequestLogger', () => {
  it('writes what pino would, each line with the request id, and nothing below the level', () => {
    const { logger, lines } = capture('warn');
    const log = lazyRequestLogger(logger, { requestId: 'req_1' }, {});
    log.info({ req: { url: '/v2/charges' } }, 'incoming request');
    log.debug('not kept');
    expect(lines).toEqual([]);
    log.warn({ reason: 'slow' }, 'took long');
    log.error(new Error('broke'));
    expect(lines.map((line) => [line.level, line.requestId, line.msg])).toEqual([
      [40, 'req_1', 'took long'],
      [50, 'req_1', 'broke'],
    ]);
    expect(lines[0]?.reason).toBe('slow');
  });

  it('keeps the redaction and serializers of the logger it stands for', () => {
    const { logger, lines } = capture('info');
    const log = lazyRequestLogger(logger, { requestId: 'req_2' }, {});
    log.info({ card: { number: '4242424242424242' }, req: { method: 'GET', url: '/v2/tokens/4242424242424242', headers: { 'x-api-key': 'sk_test_x' } } });
    expect(JSON.stringify(lines)).not.toContain('4242424242424242');
    expect(JSON.stringify(lines)).not.toContain('sk_test_x');
    expect(lines[0]?.requestId).toBe('req_2');
  });

  it("follows the level once it is changed, and makes a route's own level at once", () => {
    const { logger, lines } = capture('warn');
    const log = lazyRequestLogger(logger, { requestId: 'req_3' }, {});
    expect(log.level).toBe('warn');
    log.level = 'debug';
    log.debug('now kept');
    expect(logger.level).toBe('warn');
    const own = lazyRequestLogger(logger, { requestId: 'req_4' }, { level: 'trace' });
    own.trace('traced');
    expect(lines.map((line) => [line.requestId, line.msg])).toEqual([
      ['req_3', 'now kept'],
      ['req_4', 'traced'],
    ]);
    const grandchild = lazyRequestLogger(logger, { requestId: 'req_5' }, {}).child({ step: 'inner' });
    grandchild.warn('nested');
    expect(lines.at(-1)).toMatchObject({ requestId: 'req_5', step: 'inner', msg: 'nested' });
  });
});
