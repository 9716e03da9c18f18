import { TOKEN_LIFETIME_MS } from '../../domain/token-lifetime.ts';
import { eraseExpiredTokenSecrets } from '../../storage/repositories/sweeps.ts';
import type { BackgroundJob } from './job.ts';

/** Unused tokens keep their sealed card data only while they can be charged. */
export const eraseExpiredTokens: BackgroundJob = {
  name: 'erase-expired-tokens',
  run: (db, now) => eraseExpiredTokenSecrets(db, now, TOKEN_LIFETIME_MS),
};
