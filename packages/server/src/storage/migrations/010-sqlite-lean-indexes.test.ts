import { describe, expect, it } from 'vitest';
import { settledEventsAfter, streamStart } from '../repositories/event-stream.ts';
import { listChargeRows } from '../repositories/lists.ts';
import { pendingPastDeadline } from '../repositories/sweeps.ts';
import { plansOf } from './query-plans.ts';

/** The queries that read the indexes 010 changed still search them, not the whole table. */
describe('010-sqlite-lean-indexes', () => {
  it("keeps the charges' sweeper on its partial index", async () => {
    const [, pending] = await plansOf((db) => pendingPastDeadline(db, 1000, 100));
    expect(pending).toMatch(/SEARCH charges USING INDEX charges_pending_deadline \(created_at<\?\)/);
  });

  it('leaves the lists of pending and refunded charges on charges_by_status', async () => {
    const owner = { accountId: 'acct_1', mode: 'test' as const };
    const window = { cursor: null, fetch: 101 };
    const plans = await plansOf(async (db) => {
      await listChargeRows(db, owner, { status: 'PENDING' }, window, 1000);
      await listChargeRows(db, owner, { status: 'REFUNDED' }, window, 1000);
    });
    expect(plans).toHaveLength(3);
    for (const plan of plans)
      expect(plan).toMatch(/^SEARCH charges USING INDEX charges_by_status \(account_id=\? AND mode=\? AND status=\?( AND created_at[<>]\?)?\)$/);
  });

  it('keeps the event stream on events_commit_order without events_by_seq', async () => {
    const owner = { accountId: 'acct_1', mode: 'test' as const };
    const plans = await plansOf(async (db) => {
      await streamStart(db, owner);
      await settledEventsAfter(db, owner, { txid: 0, seq: 10 }, 100);
    });
    const reads = plans.filter((plan) => plan.includes('events'));
    expect(reads).toHaveLength(3);
    for (const plan of reads) expect(plan).toMatch(/SEARCH events USING (COVERING )?INDEX events_commit_order \(account_id=\? AND mode=\? AND txid[<>]/);
    expect(plans.join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});
