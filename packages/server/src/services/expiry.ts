import { expiredIfCreatedBy, settle } from '../domain/charge-lifecycle.ts';
import { accountNow } from '../domain/clock.ts';
import { updateChargeIfUnchanged } from '../storage/repositories/charges.ts';
import { pendingPastDeadline } from '../storage/repositories/sweeps.ts';
import { tokensByIds } from '../storage/repositories/tokens.ts';
import { chargeView } from './api-resources.ts';
import { toState, withState } from './charges.ts';
import type { Db, ServiceDeps } from './context.ts';
import { recordEvent } from './events.ts';

/** Charges recorded per run; a backlog drains over the next runs, oldest first. */
const BATCH = 500;

/**
 * Records the expiry that reads already apply (settle), with its `charge.expired` event, for
 * charges past their deadline. The update is conditional on the version read, so of any number
 * of instances sweeping at once, and of a request moving the charge meanwhile, one write wins
 * and the event is written once.
 */
export async function recordExpiries(db: Db, deps: ServiceDeps, realNow: number): Promise<number> {
  const rows = await pendingPastDeadline(db, expiredIfCreatedBy(realNow), BATCH);
  const tokens = await tokensByIds(db, [...new Set(rows.map((row) => row.token_id))]);
  let recorded = 0;
  for (const { clock_offset, ...row } of rows) {
    const now = accountNow(realNow, row.mode, clock_offset);
    const state = settle(toState(row), now);
    if (state.status === 'PENDING') continue;
    const next = { ...withState(row, state), updated_at: now, version: row.version + 1 };
    if (!(await updateChargeIfUnchanged(db, next, row.version))) continue;
    const charge = chargeView(next, tokens.get(row.token_id)!, deps);
    await recordEvent(db, deps, { accountId: row.account_id, mode: row.mode, name: 'charge.expired', at: now, charge });
    recorded++;
  }
  return recorded;
}
