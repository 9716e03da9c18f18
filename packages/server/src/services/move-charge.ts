import { PayframeError } from '@payframe/contract';
import { type ChargeEvent, transition } from '../domain/charge-lifecycle.ts';
import { updateChargeIfUnchanged } from '../storage/repositories/charges.ts';
import type { ChargesTable, TokensTable } from '../storage/schema.ts';
import { type LoadedCharge, loadCharge, toState, withState } from './charges.ts';
import type { Caller, Db } from './context.ts';

/** Each lost race re-reads the charge; a handful of rounds settles any realistic contention. */
export const MAX_ATTEMPTS = 50;

/** Writes the moved charge only if it is still at `readVersion`; answers whether it did. */
export type ChargeWrite = (next: ChargesTable, token: TokensTable, readVersion: number) => Promise<boolean>;

/**
 * Applies one lifecycle event with a conditional update on the charge's version, so that
 * of concurrent moves each sees the state the previous one left, across any number of processes.
 * `write` may add to the update (its event: capture.ts) as long as it stays conditional.
 */
export async function moveCharge(
  db: Db,
  caller: Caller,
  id: string,
  event: ChargeEvent,
  write: ChargeWrite = (next, _token, readVersion) => updateChargeIfUnchanged(db, next, readVersion),
): Promise<LoadedCharge & { refunded: number }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { charge, token } = await loadCharge(db, caller, id);
    const result = transition(toState(charge), event, caller.now);
    if (!result.ok) {
      const { code, message, parameter } = result.error;
      throw new PayframeError(code, message, parameter ? { parameter } : {});
    }
    const next = { ...withState(charge, result.charge), updated_at: caller.now, version: charge.version + 1 };
    if (await write(next, token, charge.version)) return { charge: next, token, refunded: result.refunded };
  }
  throw new PayframeError('PROCESSING_ERROR', 'The charge is being changed by other requests; retry shortly.');
}
