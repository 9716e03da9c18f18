import type { Charge } from '@payframe/contract';
import type { Caller, Db, ServiceDeps } from './context.ts';
import { recordEvent } from './events.ts';
import { moveCharge } from './move-charge.ts';
import { chargeView } from './views.ts';

/** The merchant's decision on a pending charge: take the money (capture) or release it (cancel). */
export async function captureCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string): Promise<Charge> {
  const { charge, token } = await moveCharge(db, caller, id, { type: 'capture', fees: deps.fees });
  const view = chargeView(charge, token, deps);
  await recordEvent(db, deps, { ...caller, name: 'charge.captured', at: caller.now, charge: view });
  return view;
}

export async function cancelCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string): Promise<Charge> {
  const { charge, token } = await moveCharge(db, caller, id, { type: 'cancel' });
  const view = chargeView(charge, token, deps);
  await recordEvent(db, deps, { ...caller, name: 'charge.canceled', at: caller.now, charge: view });
  return view;
}
