import { describe, expect, it } from 'vitest';
import { batchesAt, olderBatches } from '../repositories/request-log.ts';
import { plansOf } from './query-plans.ts';

const owner = { accountId: 'acct_a', mode: 'test' as const };

/** The copy of 019's rows is tested on both stores: test/request-log-migration.test.ts. */
describe('023-request-log-batches', () => {
  it('reads pages and ids on its indexes, from the cursor on rather than from the newest batch', async () => {
    const [older] = await plansOf((db) => olderBatches(db, owner, 1_000, { at: 1_500, id: 7 }, { statuses: 4, text: null }, 8));
    expect(older).toMatch(/^SEARCH request_log_batches USING INDEX request_log_batches_last \(account_id=\? AND mode=\? AND last_at<\?\)$/);
    const [at] = await plansOf((db) => batchesAt(db, owner, 1_000));
    expect(at).toMatch(/^SEARCH request_log_batches USING INDEX request_log_batches_first \(account_id=\? AND mode=\? AND first_at>\? AND first_at<\?\)$/);
  });
});
