import type { Charge, EventName } from '@payframe/contract';
import type { ChargeEvent } from '../domain/charge-lifecycle.ts';
import { chargeUpdate } from '../storage/repositories/charges.ts';
import { chargeView } from './api-resources.ts';
import type { Caller, Db, ServiceDeps } from './context.ts';
import { recordChange } from './events.ts';
import { moveCharge } from './move-charge.ts';

/** The merchant's decision on a pending charge: take the money (capture) or release it (cancel). */
/** `amount` omitted captures the whole charge; less captures part and releases the rest. */
export function captureCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string, amount?: number): Promise<Charge> {
  return decide(db, deps, caller, id, { type: 'capture', fees: deps.fees, amount }, 'charge.captured');
}

export function cancelCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string): Promise<Charge> {
  return decide(db, deps, caller, id, { type: 'cancel' }, 'charge.canceled');
}

/** The conditional update and its event are one write: a lost race writes neither and reads again. Also the test helper that expires a charge. */
export async function decide(db: Db, deps: ServiceDeps, caller: Caller, id: string, event: ChargeEvent, name: EventName): Promise<Charge> {
  let view: Charge | undefined;
  await moveCharge(db, caller, id, event, (next, token, readVersion) => {
    view = chargeView(next, token, deps);
    return recordChange(db, deps, chargeUpdate(next, readVersion), { ...caller, name, at: caller.now, charge: view });
  });
  if (!view) throw new Error('A move that succeeded rendered no charge');
  return view;
}
