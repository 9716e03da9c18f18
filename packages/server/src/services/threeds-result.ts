import type { Charge } from '@payframe/contract';
import type { Caller, Db, ServiceDeps } from './context.ts';
import { recordEvent } from './events.ts';
import { moveCharge } from './move-charge.ts';
import { chargeView } from './views.ts';

/** Records the shopper's 3-D Secure answer (from the hosted page, or the test helper standing in for it). */
export async function authenticateCharge(
  db: Db,
  deps: ServiceDeps,
  caller: Caller,
  id: string,
  result: 'success' | 'failure',
): Promise<Charge> {
  const { charge, token } = await moveCharge(db, caller, id, { type: 'authenticate', result });
  const view = chargeView(charge, token, deps);
  const name = result === 'success' ? 'charge.authentication_succeeded' : 'charge.authentication_failed';
  await recordEvent(db, deps, { ...caller, name, at: caller.now, charge: view });
  return view;
}
