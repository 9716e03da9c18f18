import { describe, expect, it } from 'vitest';
import { anyDeliveryDue } from '../repositories/webhook-deliveries.ts';
import { plansOf } from './query-plans.ts';

describe('013-webhook-due-pending', () => {
  it('keeps the worker’s probe on the partial due index (the claim: 021)', async () => {
    const [probe] = await plansOf((db) => anyDeliveryDue(db, 1000));
    expect(probe).toMatch(/^SEARCH webhook_deliveries USING COVERING INDEX webhook_deliveries_due \(next_attempt_at<\?\)$/);
  });
});
