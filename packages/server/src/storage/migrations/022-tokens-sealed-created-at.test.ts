import { describe, expect, it } from 'vitest';
import { eraseExpiredTokenSecrets } from '../repositories/sweeps.ts';
import { plansOf } from './query-plans.ts';

describe('022-tokens-sealed-created-at', () => {
  it('erases expired cards reading only the sealed tokens old enough on the furthest clock', async () => {
    const plans = await plansOf((db) => eraseExpiredTokenSecrets(db, 1000, 900_000));
    const erase = plans.find((plan) => plan.includes('tokens')) ?? '';
    expect(erase).toMatch(/^SEARCH tokens USING INDEX tokens_sealed_created_at \(created_at<\?\)$/m);
    expect(erase).not.toMatch(/SCAN tokens|tokens_unused_created_at/);
  });
});
