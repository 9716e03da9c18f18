import { type Charge, type CreateChargeBody, ERROR_CODES, PayframeError } from '@payframe/contract';
import { isExpired } from '../domain/card-info.ts';
import { isTokenExpired } from '../domain/token-lifetime.ts';
import { type ChargeState, settle } from '../domain/charge-lifecycle.ts';
import type { IssuerOutcome } from '@payframe/contract/test-cards';
import { openCard } from '../security/vault.ts';
import type { ChargesTable, TokensTable } from '../storage/schema.ts';
import { type Caller, type Db, type Outcome, ownedBy, type ServiceDeps } from './context.ts';
import { findToken } from './tokens.ts';
import { chargeView } from './views.ts';

/**
 * Consumes the token (first attempt wins, approved or declined), asks the acquirer,
 * and stores a PENDING charge only when the card was approved.
 */
export async function createCharge(db: Db, deps: ServiceDeps, caller: Caller, input: CreateChargeBody): Promise<Outcome<Charge>> {
  const token = await findToken(db, caller, input.token);
  if (!token) {
    throw new PayframeError('RESOURCE_MISSING', 'No such token.', { parameter: 'token', status: 400 });
  }
  // A used token answers TOKEN_ALREADY_USED (below) whatever its age.
  if (token.used_at === null && isTokenExpired(token.created_at, caller.now)) {
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

  // The conditional update is the race: of concurrent attempts on one token exactly one changes the row.
  const consumed = await db
    .updateTable('tokens')
    .set({ used_at: caller.now, card_secret: null })
    .where('id', '=', token.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (consumed.numUpdatedRows !== 1n || !token.card_secret) {
    return { ok: false, error: new PayframeError('TOKEN_ALREADY_USED', ERROR_CODES.TOKEN_ALREADY_USED.message, { parameter: 'token' }) };
  }

  const secret = openCard(deps.secrets.cardEncryptionKey, token.id, token.card_secret);
  const outcome: IssuerOutcome = isExpired(token.exp_month, token.exp_year, caller.now)
    ? { approved: false, code: 'EXPIRED_CARD' }
    : await acquirer.authorize({
        card: { ...secret, expMonth: token.exp_month, expYear: token.exp_year },
        amount: input.amount,
        currency: input.currency,
        mode: caller.mode,
      });
  if (!outcome.approved) {
    return { ok: false, error: declineError(outcome.code, outcome.declineReason) };
  }

  const charge: ChargesTable = {
    id: deps.ids.charge(),
    account_id: caller.accountId,
    mode: caller.mode,
    token_id: token.id,
    amount: input.amount,
    amount_refunded: 0,
    currency: input.currency,
    description: input.description,
    txn_reference: input.txn_reference ?? null,
    return_url: input.return_url,
    status: 'PENDING',
    threeds_status: token.authorization === 'REQUIRED' ? 'PENDING' : 'NOT_AVAILABLE',
    reason: null,
    fees: null,
    created_at: caller.now,
    updated_at: caller.now,
    version: 1,
  };
  await db.insertInto('charges').values(charge).execute();
  return { ok: true, value: chargeView(charge, token, deps) };
}

const DECLINE_MESSAGES = {
  DECLINED: 'The card was declined.',
  EXPIRED_CARD: 'The card has expired.',
  INCORRECT_CVC: 'The card security code is incorrect.',
} as const;

function declineError(code: keyof typeof DECLINE_MESSAGES, declineReason: PayframeError['declineReason']): PayframeError {
  return new PayframeError(code, DECLINE_MESSAGES[code], {
    ...(declineReason ? { declineReason } : {}),
    ...(code === 'INCORRECT_CVC' ? { parameter: 'card.cvc' } : {}),
  });
}

export type LoadedCharge = { charge: ChargesTable; token: TokensTable };

/** The charge with its token, as of the caller's clock (expiry applied), or a 404. */
export async function loadCharge(db: Db, caller: Caller, id: string): Promise<LoadedCharge> {
  const charge = await db
    .selectFrom('charges')
    .selectAll()
    .where((eb) => eb.and(ownedBy(caller, id)))
    .executeTakeFirst();
  if (!charge) throw new PayframeError('RESOURCE_MISSING', 'No such charge.', { parameter: 'id' });
  const token = await db.selectFrom('tokens').selectAll().where('id', '=', charge.token_id).executeTakeFirstOrThrow();
  return { charge: withState(charge, settle(toState(charge), caller.now)), token };
}

export async function retrieveCharge(db: Db, deps: ServiceDeps, caller: Caller, id: string): Promise<Charge> {
  const { charge, token } = await loadCharge(db, caller, id);
  return chargeView(charge, token, deps);
}

export function toState(row: ChargesTable): ChargeState {
  return {
    status: row.status,
    threedsStatus: row.threeds_status,
    reason: row.reason,
    amount: row.amount,
    amountRefunded: row.amount_refunded,
    fees: row.fees,
    createdAt: row.created_at,
  };
}

/** The row with the lifecycle's fields replaced by those of `state`. */
export function withState(row: ChargesTable, state: ChargeState): ChargesTable {
  return {
    ...row,
    status: state.status,
    threeds_status: state.threedsStatus,
    reason: state.reason,
    amount_refunded: state.amountRefunded,
    fees: state.fees,
  };
}
