import { type Charge, type CreateChargeBody, ERROR_CODES, type Mode, metadataToStore, PayframeError } from '@payframe/contract';
import type { ThreeDSScenario } from '@payframe/contract/test-cards';
import type { AcquirerAnswer } from '../acquirer/acquirer.ts';
import { isExpired } from '../domain/card-info.ts';
import { type ChargeState, settle } from '../domain/charge-lifecycle.ts';
import { declineDelta, shardOf, utcDay } from '../domain/overview.ts';
import { tokenEnded, tokenState } from '../domain/token-lifetime.ts';
import { openCard } from '../security/vault.ts';
import { atomically } from '../storage/atomically.ts';
import { type ChargeViewRow, chargeInsert, findChargeView, findChargeWithToken } from '../storage/repositories/charges.ts';
import { addOverview } from '../storage/repositories/overview.ts';
import { takeToken } from '../storage/repositories/tokens.ts';
import type { ChargesTable, TokensTable } from '../storage/schema.ts';
import { chargeView } from './api-resources.ts';
import type { Caller, Db, ServiceDeps } from './context.ts';
import { CardDeclined } from './errors.ts';
import { recordChange } from './events.ts';

/**
 * Consumes the token (first attempt wins, approved or declined), asks the acquirer,
 * and stores a PENDING charge only when the card was approved. A decline throws CardDeclined:
 * the token stays spent.
 */
export async function createCharge(db: Db, deps: ServiceDeps, caller: Caller, input: CreateChargeBody): Promise<Charge> {
  // Two writes (the token, then the charge with its event) around the acquirer's answer: one transaction.
  const result = await atomically(db, (tx) => chargeToken(tx, deps, caller, input));
  if ('declined' in result) throw result.declined;
  return result.charge;
}

async function chargeToken(db: Db, deps: ServiceDeps, caller: Caller, input: CreateChargeBody): Promise<{ charge: Charge } | { declined: CardDeclined }> {
  // Taken first, checked after: a refusal below throws, and the transaction's rollback gives the token back.
  const taken = await takeToken(db, caller, input.token, caller.now);
  if (!taken) {
    throw new PayframeError('RESOURCE_MISSING', 'No such token.', { parameter: 'token', status: 400 });
  }
  const { token, consumed } = taken;
  // A used token answers TOKEN_ALREADY_USED (below) whatever its age.
  if (tokenEnded(tokenState(token), caller.now) === 'TOKEN_EXPIRED') {
    throw new PayframeError('TOKEN_EXPIRED', 'The token has expired; tokens can be charged for 15 minutes. Create a new one.', {
      parameter: 'token',
    });
  }
  if (caller.mode === 'live' && new URL(input.return_url).protocol !== 'https:') {
    throw new PayframeError('PARAMETER_INVALID', 'Invalid parameter return_url: live mode requires an https URL.', {
      parameter: 'return_url',
    });
  }
  const acquirer = caller.mode === 'test' ? deps.testAcquirer : deps.liveAcquirer;
  if (!acquirer) throw new PayframeError('LIVE_MODE_NOT_ALLOWED');

  if (!consumed || !token.card_secret) {
    throw new PayframeError('TOKEN_ALREADY_USED', ERROR_CODES.TOKEN_ALREADY_USED.message, { parameter: 'token' });
  }

  const secret = openCard(deps.secrets.cardEncryptionKey, token.id, token.card_secret);
  const outcome: AcquirerAnswer = isExpired(token.exp_month, token.exp_year, caller.now)
    ? { approved: false, code: 'EXPIRED_CARD' }
    : await acquirer.authorize({
        card: { ...secret, expMonth: token.exp_month, expYear: token.exp_year },
        amount: input.amount,
        currency: input.currency,
        mode: caller.mode,
      });
  // Returned, not thrown: the spent token commits with the decline, and so does its count.
  if (!outcome.approved) {
    const delta = declineDelta(outcome.declineReason ?? outcome.code, input.currency, input.amount);
    await addOverview(db, { accountId: caller.accountId, mode: caller.mode, day: utcDay(caller.now), shard: shardOf(token.id), deltas: [delta] });
    return { declined: new CardDeclined(outcome.code, outcome.declineReason) };
  }

  const charge = newChargeRow(deps.ids.charge(), caller, token, input, caller.now, outcome.threeDSScenario);
  const view = chargeView(charge, token, deps);
  await recordChange(db, deps, chargeInsert(charge), { ...caller, name: 'charge.created', at: caller.now, charge: view });
  return { charge: view };
}

/** What a new charge takes from its request; the seed gives the same for the charges it makes. */
export type NewChargeInput = Pick<CreateChargeBody, 'amount' | 'currency' | 'description' | 'txn_reference' | 'return_url' | 'metadata'>;

/**
 * The row of a charge just approved: PENDING, nothing captured or refunded, waiting for 3-D Secure
 * when its card requires it (in the scenario the issuer chose, a challenge unless it said), with the
 * shopper's e-mail and the card's last four digits copied for the dashboard's search.
 */
export function newChargeRow(
  id: string,
  owner: { accountId: string; mode: Mode },
  token: TokensTable,
  input: NewChargeInput,
  at: number,
  threeDSScenario?: ThreeDSScenario,
): ChargesTable {
  const authenticates = token.authorization === 'REQUIRED';
  return {
    id,
    account_id: owner.accountId,
    mode: owner.mode,
    token_id: token.id,
    amount: input.amount,
    amount_captured: 0,
    amount_refunded: 0,
    currency: input.currency,
    description: input.description,
    txn_reference: input.txn_reference ?? null,
    return_url: input.return_url,
    status: 'PENDING',
    threeds_status: authenticates ? 'PENDING' : 'NOT_AVAILABLE',
    reason: null,
    fees: null,
    created_at: at,
    updated_at: at,
    version: 1,
    email: token.shopper_email.toLowerCase(),
    last4: token.last4,
    threeds_scenario: authenticates ? (threeDSScenario ?? 'challenge') : null,
    threeds_trans_status: null,
    threeds_code_failures: 0,
    metadata: JSON.stringify(metadataToStore(input.metadata)),
  };
}

export type LoadedCharge = { charge: ChargesTable; token: TokensTable };

/** A charge read with its token, as of the caller's clock (expiry applied), or a 404: whichever columns were read. */
function settledOrMissing<C extends ChargeViewRow, T>(found: { charge: C; token: T } | undefined, caller: Caller): { charge: C; token: T } {
  if (!found) throw new PayframeError('RESOURCE_MISSING', 'No such charge.', { parameter: 'id' });
  const { charge, token } = found;
  return { charge: withState(charge, settle(toState(charge), caller.now)), token };
}

/** The charge with its token, whole rows, for a change. */
export async function loadCharge(db: Db, caller: Caller, id: string): Promise<LoadedCharge> {
  return settledOrMissing(await findChargeWithToken(db, caller, id), caller);
}

/** The charge's answer as of the caller's clock, read with only what the answer shows. */
export async function retrieveCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string): Promise<Charge> {
  const { charge, token } = settledOrMissing(await findChargeView(db, caller, id), caller);
  return chargeView(charge, token, deps);
}

export function toState(row: ChargeViewRow): ChargeState {
  return {
    status: row.status,
    threeDSStatus: row.threeds_status,
    threeDSScenario: row.threeds_scenario,
    transStatus: row.threeds_trans_status,
    codeFailures: row.threeds_code_failures,
    reason: row.reason,
    amount: row.amount,
    amountCaptured: row.amount_captured,
    amountRefunded: row.amount_refunded,
    fees: row.fees,
    createdAt: row.created_at,
  };
}

/** The row with the lifecycle's fields replaced by those of `state`. */
export function withState<Row extends ChargeViewRow>(row: Row, state: ChargeState): Row {
  return {
    ...row,
    status: state.status,
    threeds_status: state.threeDSStatus,
    threeds_trans_status: state.transStatus,
    threeds_code_failures: state.codeFailures,
    reason: state.reason,
    amount_captured: state.amountCaptured,
    amount_refunded: state.amountRefunded,
    fees: state.fees,
  };
}
