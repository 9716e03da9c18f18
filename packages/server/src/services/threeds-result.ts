import type { Charge, EventName, TransStatus } from '@payframe/contract';
import type { ThreeDSAnswer } from '../domain/threeds-page-answers.ts';
import { chargeView } from './api-resources.ts';
import type { Caller, Db, ServiceDeps } from './context.ts';
import { recordEvent } from './events.ts';
import { moveCharge } from './move-charge.ts';

const EVENT_OF: Record<TransStatus, EventName> = {
  Y: 'charge.authentication_succeeded',
  N: 'charge.authentication_failed',
  R: 'charge.authentication_failed',
  U: 'charge.authentication_unavailable',
};

/**
 * Records the shopper's 3-D Secure answer (from a hosted page, or the test helper standing in for
 * it), with its event once 3-D Secure is settled; a wrong code that leaves tries records none.
 */
export async function answerThreeDS(db: Db, deps: ServiceDeps, caller: Caller, id: string, answer: ThreeDSAnswer): Promise<Charge> {
  const { charge, token } = await moveCharge(db, caller, id, answer);
  const view = chargeView(charge, token, deps);
  if (charge.threeds_status !== 'PENDING' && charge.threeds_trans_status) {
    await recordEvent(db, deps, { ...caller, name: EVENT_OF[charge.threeds_trans_status], at: caller.now, charge: view });
  }
  return view;
}

/** The test helper's shortcut: `success` gives the card's scenario's own outcome, `failure` N. */
export function authenticateCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string, result: 'success' | 'failure'): Promise<Charge> {
  return answerThreeDS(db, deps, caller, id, { type: 'authenticate', result });
}
