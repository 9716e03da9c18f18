import { describe, expect, it } from 'vitest';
import { type AnsweredRequest, requestLogRow } from './request-log.ts';

const answered = (query: unknown, body: unknown): AnsweredRequest => ({
  id: 'req_1',
  accountId: 'acct_1',
  mode: 'test',
  at: 0,
  method: 'POST',
  url: '/v2/tokens',
  status: 400,
  durationMs: 1,
  keyId: 'key_1',
  idempotencyKey: undefined,
  query,
  body,
  response: '{}',
});

describe('requestLogRow: the parameters as stored', () => {
  it('are what was sent, however little, and never a card number or CVC', () => {
    const stored = (query: unknown, body: unknown) => requestLogRow(answered(query, body)).request;
    expect(stored(undefined, undefined)).toBe('{"query":{},"body":null}');
    expect(stored(Object.create(null), null)).toBe('{"query":{},"body":null}');
    expect(stored({}, {})).toBe('{"query":{},"body":{}}');
    expect(stored({}, [])).toBe('{"query":{},"body":[]}');
    expect(stored({ limit: '2' }, {})).toBe('{"query":{"limit":"2"},"body":{}}');
    expect(JSON.parse(stored({}, { card: { number: '4242424242424242', cvc: '123', exp_month: '12' } }))).toEqual({
      query: {},
      body: { card: { number: '[redacted]', cvc: '[redacted]', exp_month: '12' } },
    });
  });
});
