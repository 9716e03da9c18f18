import { PayframeError, type ThreeDSStatus } from '@payframe/contract';
import type { ChargeState } from '../domain/charge-lifecycle.ts';
import { accountNow } from '../domain/clock.ts';
import type { ThreeDSAnswer } from '../domain/threeds-page-answers.ts';
import { findChargeAccount } from '../storage/repositories/charges.ts';
import { insertThreeDSReturn } from '../storage/repositories/threeds-returns.ts';
import { type LoadedCharge, loadCharge, toState } from './charges.ts';
import type { Caller, Db, ServiceDeps, Store } from './context.ts';
import { answerThreeDS } from './threeds-result.ts';

/** A charge as the hosted 3-D Secure page sees it: with its lifecycle state, its merchant's name and its own caller. */
export type HostedCharge = LoadedCharge & { state: ChargeState; merchantName: string; caller: Caller };

/**
 * The charge behind a hosted-page link, found by id alone: the shopper's browser carries no API
 * key, so the caller is the charge's own account and mode, on that account's clock (expiry
 * applied). Check the link's paRes first: the id alone proves nothing.
 */
export function findHostedCharge(store: Store, id: string, realNow: number): Promise<HostedCharge | null> {
  return store.read((db) => hostedCharge(db, id, realNow));
}

async function hostedCharge(db: Db, id: string, realNow: number): Promise<HostedCharge | null> {
  const account = await findChargeAccount(db, id);
  if (!account) return null;
  const { accountId, mode, merchantName, testClockOffset } = account;
  const caller: Caller = { accountId, mode, now: accountNow(realNow, mode, testClockOffset) };
  const loaded = await loadCharge(db, caller, id);
  return { ...loaded, state: toState(loaded.charge), merchantName, caller };
}

export type HostedOutcome =
  /** The answer was recorded; `hosted` is the charge after it (3-D Secure may still be PENDING after a wrong code). */
  | { kind: 'recorded'; hosted: HostedCharge }
  /** 3-D Secure had already left PENDING (spent link, ended charge, frictionless card): nothing changed. */
  | { kind: 'unchanged'; hosted: HostedCharge }
  | { kind: 'missing' };

/**
 * Records the shopper's answer through the one lifecycle. Settling 3-D Secure is what spends the
 * link: of concurrent answers exactly one is recorded (a conditional update on the charge's
 * version), and concurrent wrong codes are each counted.
 */
export function recordHostedOutcome(store: Store, deps: ServiceDeps, id: string, answer: ThreeDSAnswer): Promise<HostedOutcome> {
  return store.transaction((tx) => recordOutcome(tx, deps, id, answer, deps.clock.now()));
}

async function recordOutcome(db: Db, deps: ServiceDeps, id: string, answer: ThreeDSAnswer, realNow: number): Promise<HostedOutcome> {
  const hosted = await hostedCharge(db, id, realNow);
  if (!hosted) return { kind: 'missing' };
  try {
    await answerThreeDS(db, deps, hosted.caller, id, answer);
  } catch (error) {
    if (!(error instanceof PayframeError) || error.code !== 'AUTHENTICATION_NOT_PENDING') throw error;
    // Another answer may have won meanwhile: show the charge as it is now.
    const current = await hostedCharge(db, id, realNow);
    return current ? { kind: 'unchanged', hosted: current } : { kind: 'missing' };
  }
  const after = await hostedCharge(db, id, realNow);
  return after ? { kind: 'recorded', hosted: after } : { kind: 'missing' };
}

/**
 * Takes the bank-app card's one trip back to the merchant: true for the first caller only, on any
 * instance (a conditional insert), so that the waiting page's later views show the spent link
 * instead of redirecting for ever.
 */
export function takeThreeDSReturn(store: Store, chargeId: string, realNow: number): Promise<boolean> {
  return store.write((db) => insertThreeDSReturn(db, chargeId, realNow));
}

/**
 * The merchant's return URL with `charge_id` and `status` (the charge's 3-D Secure status) added.
 * The existing query is kept byte for byte; only earlier `charge_id`/`status` parameters, which
 * would make the outcome ambiguous, are dropped.
 */
export function returnLink(returnUrl: string, chargeId: string, status: ThreeDSStatus): string {
  const url = new URL(returnUrl);
  if (url.searchParams.has('charge_id') || url.searchParams.has('status')) {
    url.searchParams.delete('charge_id');
    url.searchParams.delete('status');
  }
  const outcome = new URLSearchParams({ charge_id: chargeId, status }).toString();
  url.search = url.search ? `${url.search}&${outcome}` : `?${outcome}`;
  return url.toString();
}
