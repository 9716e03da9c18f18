import { describe, expect, it } from 'vitest';
import { anyDeliveryDue, claimDueDeliveries } from '../repositories/webhook-deliveries.ts';
import { plansOf } from './query-plans.ts';

describe('013-webhook-due-pending', () => {
  it('keeps the worker’s probe and claim on the partial due index', async () => {
    const [probe, claim] = await plansOf(async (db) => {
      await anyDeliveryDue(db, 1000);
      await claimDueDeliveries(db, { now: 1000, leaseUntil: 21_000, runner: 'runner-1', limit: 64, perEndpoint: 4, perAccount: 32 });
    });
    expect(probe).toMatch(/^SEARCH webhook_deliveries USING COVERING INDEX webhook_deliveries_due \(next_attempt_at<\?\)$/);
    expect(claim).toMatch(/SEARCH webhook_deliveries USING INDEX webhook_deliveries_due \(next_attempt_at<\?\)/);
    expect(claim).toMatch(/SEARCH events USING INDEX sqlite_autoindex_events_1 \(id=\?\)/);
    // Leases in flight are counted on their own partial index (016).
    expect(claim).toMatch(/SEARCH webhook_deliveries USING (COVERING )?INDEX webhook_deliveries_leased \(lease_until>\?\)/);
    expect(claim).not.toMatch(/SCAN webhook_deliveries/);
  });
});
