import { describe, expect, it } from 'vitest';
import { eraseExpiredTokenSecrets } from '../repositories/sweeps.ts';
import { plansOf } from './query-plans.ts';

describe('022-tokens-sealed-created-at', () => {
  it('erases expired cards reading only the tokens whose card is still sealed', async () => {
    const [erase] = await plansOf((db) => eraseExpiredTokenSecrets(db, 1000, 900_000));
    expect(erase).toMatch(/^SCAN tokens USING INDEX tokens_sealed_created_at$/m);
    expect(erase).not.toMatch(/tokens_unused_created_at/);
  });
});
