import { type Charge, PayframeError, type Refund } from '@payframe/contract';
import { type ChargeEvent, transition } from '../domain/charge-lifecycle.ts';
import type { RefundsTable } from '../storage/schema.ts';
import { type LoadedCharge, loadCharge, toState, withState } from './charges.ts';
import { type Caller, type Db, ownedBy, type ServiceDeps } from './context.ts';
import { chargeView, refundView } from './views.ts';

/** Each lost race re-reads the charge; a handful of rounds settles any realistic contention. */
const MAX_ATTEMPTS = 50;

/**
 * Applies one lifecycle event with a conditional update on the charge's version, so that
 * of concurrent moves each sees the state the previous one left, across any number of processes.
 */
async function moveCharge(db: Db, caller: Caller, id: string, event: ChargeEvent): Promise<LoadedCharge & { refunded: number }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const { charge, token } = await loadCharge(db, caller, id);
    const result = transition(toState(charge), event, caller.now);
    if (!result.ok) {
      const { code, message, parameter } = result.error;
      throw new PayframeError(code, message, parameter ? { parameter } : {});
    }
    const next = { ...withState(charge, result.charge), updated_at: caller.now, version: charge.version + 1 };
    const { status, threeds_status, reason, amount_refunded, fees, updated_at, version } = next;
    const update = await db
      .updateTable('charges')
      .set({ status, threeds_status, reason, amount_refunded, fees, updated_at, version })
      .where('id', '=', charge.id)
      .where('version', '=', charge.version)
      .executeTakeFirst();
    if (update.numUpdatedRows === 1n) return { charge: next, token, refunded: result.refunded };
  }
  throw new PayframeError('PROCESSING_ERROR', 'The charge is being changed by other requests; retry shortly.');
}

export async function captureCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string): Promise<Charge> {
  const { charge, token } = await moveCharge(db, caller, id, { type: 'capture', fees: deps.fees });
  return chargeView(charge, token, deps);
}

export async function cancelCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string): Promise<Charge> {
  const { charge, token } = await moveCharge(db, caller, id, { type: 'cancel' });
  return chargeView(charge, token, deps);
}

export async function authenticateCharge(
  db: Db,
  deps: ServiceDeps,
  caller: Caller,
  id: string,
  result: 'success' | 'failure',
): Promise<Charge> {
  const { charge, token } = await moveCharge(db, caller, id, { type: 'authenticate', result });
  return chargeView(charge, token, deps);
}

/** Refunds part or all of a captured charge, or releases an uncaptured one whole. */
export async function refundCharge(
  db: Db,
  deps: ServiceDeps,
  caller: Caller,
  id: string,
  amount: number | undefined,
): Promise<Refund> {
  const { charge, refunded } = await moveCharge(db, caller, id, { type: 'refund', amount });
  const refund: RefundsTable = {
    id: deps.ids.uuid(),
    account_id: caller.accountId,
    mode: caller.mode,
    charge_id: charge.id,
    amount: refunded,
    currency: charge.currency,
    fee_refunded: 0,
    created_at: caller.now,
  };
  await db.insertInto('refunds').values(refund).execute();
  return refundView(refund);
}

export async function retrieveRefund(db: Db, caller: Caller, id: string): Promise<Refund> {
  const refund = await db
    .selectFrom('refunds')
    .selectAll()
    .where((eb) => eb.and(ownedBy(caller, id)))
    .executeTakeFirst();
  if (!refund) throw new PayframeError('RESOURCE_MISSING', 'No such refund.', { parameter: 'id' });
  return refundView(refund);
}
