import { describe, expect, it } from 'vitest';
import { listChargeRows } from '../repositories/lists.ts';
import { plansOf } from './query-plans.ts';

describe('011-sqlite-partial-txn-reference', () => {
  it('keeps a list filtered by txn_reference on charges_by_txn_reference, now partial', async () => {
    const owner = { accountId: 'acct_1', mode: 'test' as const };
    const plans = await plansOf(async (db) => {
      await listChargeRows(db, owner, { txnReference: 'order-1' }, { cursor: null, fetch: 101 }, 1000);
      await listChargeRows(db, owner, { txnReference: 'order-1' }, { cursor: { direction: 'older', createdAt: 5, tie: 'ch_1' }, fetch: 101 }, 1000);
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans)
      expect(plan).toMatch(/^SEARCH charges USING INDEX charges_by_txn_reference \(account_id=\? AND mode=\? AND txn_reference=\?( AND created_at<\?)?\)$/);
  });
});
