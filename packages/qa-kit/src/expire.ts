import type { Charge, Token } from '@payframe/contract';
import { callApi, type PayframeApiOptions } from './api.ts';

/**
 * Expires one pending charge now, as its 7-day deadline would (REFUNDED, reason EXPIRED, its
 * `charge.expired` event and webhooks), through `POST /v2/test_helpers/charges/:id/expire`. No
 * clock moves: tests running in parallel on the same account are not disturbed, unlike the
 * account's test clock. Resolves with the expired charge.
 */
export function expireCharge(chargeId: string, options: PayframeApiOptions): Promise<Charge> {
  return callApi(`expireCharge(${chargeId})`, options, 'POST', `/v2/test_helpers/charges/${encodeURIComponent(chargeId)}/expire`);
}

/** Ends one unused token's 15 minutes now: charging it then answers TOKEN_EXPIRED. No clock moves. */
export function expireToken(tokenId: string, options: PayframeApiOptions): Promise<Token> {
  return callApi(`expireToken(${tokenId})`, options, 'POST', `/v2/test_helpers/tokens/${encodeURIComponent(tokenId)}/expire`);
}
