import { type Charge, ERROR_CODES, PayframeError, type Token } from '@payframe/contract';
import { tokenEnded, tokenState } from '../domain/token-lifetime.ts';
import { eraseUnusedTokenSecret, findToken } from '../storage/repositories/tokens.ts';
import { tokenView } from './api-resources.ts';
import { decide } from './capture.ts';
import type { Caller, Db, ServiceDeps } from './context.ts';

/*
 * The test helpers' per-object time travel: one charge or one token reaches its deadline now,
 * and nothing else does. No clock moves, so tests running in parallel on one account stay apart.
 */

/** Expires one pending charge as its 7-day deadline would: the same state, its `charge.expired` event and webhooks. */
export function expireChargeNow(db: Db, deps: ServiceDeps, caller: Caller, id: string): Promise<Charge> {
  return decide(db, deps, caller, id, { type: 'expire' }, 'charge.expired');
}

/**
 * Ends one unused token's 15 minutes now. Its sealed card is erased in this transaction (what the
 * sweeper would do after the deadline, only sooner), which is also what makes it answer
 * TOKEN_EXPIRED from now on (domain/token-lifetime.ts). A used or already expired token → 402.
 */
export async function expireTokenNow(db: Db, caller: Caller, id: string): Promise<Token> {
  const token = await findToken(db, caller, id);
  if (!token) throw new PayframeError('RESOURCE_MISSING', 'No such token.', { parameter: 'id' });
  const ended = tokenEnded(tokenState(token), caller.now);
  if (ended) throw new PayframeError(ended, ERROR_CODES[ended].message);
  if (!(await eraseUnusedTokenSecret(db, caller, id))) {
    // A charge took it between the read and the erase: it is used now.
    throw new PayframeError('TOKEN_ALREADY_USED', ERROR_CODES.TOKEN_ALREADY_USED.message);
  }
  return tokenView({ ...token, card_secret: null });
}
