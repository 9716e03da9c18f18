import { describe, expect, it } from 'vitest';
import { claimDueDeliveries } from '../repositories/webhook-deliveries.ts';
import { plansOf } from './query-plans.ts';

describe('021-webhook-due-per-endpoint', () => {
  it('claims each endpoint’s oldest due deliveries on its own index, never reading the whole backlog', async () => {
    const [claim] = await plansOf((db) =>
      claimDueDeliveries(db, { now: 1000, leaseUntil: 21_000, runner: 'runner-1', limit: 64, perEndpoint: 4, perAccount: 32 }),
    );
    // Per endpoint, a range of the pending rows by (endpoint, due time), cut at perEndpoint rows.
    expect(claim).toMatch(/SEARCH x USING COVERING INDEX webhook_deliveries_endpoint_due \(endpoint_id=\? AND next_attempt_at<\?\)/);
    expect(claim).toMatch(/SEARCH events USING INDEX sqlite_autoindex_events_1 \(id=\?\)/);
    // Leases in flight are counted on their own partial index (016), read once.
    expect(claim).toMatch(/MATERIALIZE leased\nSEARCH webhook_deliveries USING (COVERING )?INDEX webhook_deliveries_leased \(lease_until>\?\)/);
    expect(claim).not.toMatch(/SCAN (webhook_deliveries|d|x)\b/);
    expect(claim).not.toMatch(/webhook_deliveries_due/);
  });
});
