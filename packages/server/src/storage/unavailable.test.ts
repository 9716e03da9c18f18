import { describe, expect, it } from 'vitest';
import { isStoreUnavailable } from './unavailable.ts';

describe('isStoreUnavailable', () => {
  it('is an outage when PostgreSQL cannot be reached or used now, whichever way it says so', () => {
    for (const error of [
      { code: 'ECONNREFUSED' },
      { code: '57P01', message: 'terminating connection due to administrator command' },
      { code: '08006', message: 'connection failure' },
      { code: '25006', message: 'cannot execute INSERT in a read-only transaction' },
      { code: '55000', message: 'database "payframe" is not currently accepting connections' },
      { code: 'SQLITE_BUSY' },
      new Error('Connection terminated unexpectedly'),
    ]) {
      expect(isStoreUnavailable(error), JSON.stringify(error)).toBe(true);
    }
  });

  it('is no outage when the fault is in the statement or in our own code', () => {
    for (const error of [
      { code: '55000', message: 'cannot refresh materialized view concurrently' },
      { code: '23505', message: 'duplicate key value violates unique constraint' },
      { code: '42P01', message: 'relation "x" does not exist' },
      new TypeError('x is not a function'),
      null,
      'text',
    ]) {
      expect(isStoreUnavailable(error), JSON.stringify(error)).toBe(false);
    }
  });
});
