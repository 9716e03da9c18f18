import { describe, expect, it } from 'vitest';
import { decodeEntries, encodeEntries, RUN_MAX_CHARS, RUN_SPAN_MS, runsOf } from './request-log-batch.ts';
import type { RequestLogEntryRow } from './schema.ts';

const entry = (created_at: number, overrides: Partial<RequestLogEntryRow> = {}): RequestLogEntryRow => ({
  id: `req_${created_at}`,
  created_at,
  method: 'POST',
  path: '/v2/charges',
  status: 200,
  duration_ms: 2,
  key_id: 'key_1',
  idempotency_key: null,
  request: '{"query":{},"body":null}',
  response: '{}',
  ...overrides,
});

describe('a run of request log entries as one text', () => {
  it('reads back every entry as written, whatever its texts hold', () => {
    const entries = [
      entry(1, { path: '/v2/charges/"quoted"\n', idempotency_key: 'line\nbreak', response: '{"a":"\\n\\"x\\" é 😀"}\n\n' }),
      entry(2, { request: '', response: '', key_id: null }),
      entry(3, { response: 'not JSON at all: [1, 2\n', status: 500 }),
    ];
    expect(decodeEntries(encodeEntries(entries))).toEqual(entries);
    expect(decodeEntries('')).toEqual([]);
  });

  it('refuses a text cut short rather than reading another entry into it', () => {
    const text = encodeEntries([entry(1), entry(2)]);
    expect(() => decodeEntries(text.slice(0, -1))).toThrow(/cut short/);
  });

  it('splits runs past RUN_SPAN_MS of receipt times and past RUN_MAX_CHARS, each oldest first', () => {
    const runs = runsOf([entry(RUN_SPAN_MS + 1), entry(0), entry(RUN_SPAN_MS), entry(5_000)]);
    expect(runs.map((run) => run.map((item) => item.created_at))).toEqual([[0, RUN_SPAN_MS], [RUN_SPAN_MS + 1], [5_000]]);
    const big = 'x'.repeat(RUN_MAX_CHARS / 2);
    const sized = runsOf([entry(1, { response: big }), entry(2, { response: big }), entry(3)]);
    expect(sized.map((run) => run.length)).toEqual([1, 2]);
  });
});
