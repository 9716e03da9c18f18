import { type CreateRefundBody, metadataToStore, PayframeError, type Refund } from '@payframe/contract';
import { atomically } from '../storage/atomically.ts';
import { findRefund, insertRefund } from '../storage/repositories/refunds.ts';
import type { RefundsTable } from '../storage/schema.ts';
import { chargeView, refundView } from './api-resources.ts';
import type { Caller, Db, ServiceDeps } from './context.ts';
import { recordEvent } from './events.ts';
import { moveCharge } from './move-charge.ts';

/** Refunds part or all of a captured charge, or releases an uncaptured one whole. */
export function refundCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string, input: CreateRefundBody): Promise<Refund> {
  // Three writes: the charge, the refund and the event.
  return atomically(db, (tx) => writeRefund(tx, deps, caller, id, input));
}

async function writeRefund(db: Db, deps: ServiceDeps, caller: Caller, id: string, input: CreateRefundBody): Promise<Refund> {
  const { charge, token, refunded } = await moveCharge(db, caller, id, { type: 'refund', amount: input.amount });
  const refund: RefundsTable = {
    id: deps.ids.uuid(),
    account_id: caller.accountId,
    mode: caller.mode,
    charge_id: charge.id,
    amount: refunded,
    currency: charge.currency,
    fee_refunded: 0,
    created_at: caller.now,
    metadata: JSON.stringify(metadataToStore(input.metadata)),
  };
  await insertRefund(db, refund);
  const view = refundView(refund);
  await recordEvent(db, deps, { ...caller, name: 'charge.refunded', at: caller.now, charge: chargeView(charge, token, deps), refund: view });
  return view;
}

export async function retrieveRefund(db: Db, caller: Caller, id: string): Promise<Refund> {
  const refund = await findRefund(db, caller, id);
  if (!refund) throw new PayframeError('RESOURCE_MISSING', 'No such refund.', { parameter: 'id' });
  return refundView(refund);
}
