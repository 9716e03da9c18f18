import type { Charge, ChargeToken, Metadata, Refund, Token } from '@payframe/contract';
import { epochSeconds, isoSecondsUtc } from '../domain/clock.ts';
import { threeDSRedirect } from '../security/threeds-link.ts';
import type { ChargeViewRow } from '../storage/repositories/charges.ts';
import type { TokenViewRow } from '../storage/repositories/tokens.ts';
import type { RefundsTable, TokensTable } from '../storage/schema.ts';
import type { ServiceDeps } from './context.ts';

/*
 * The API's resources (token, charge, refund) in the contract's shapes, made from their stored rows:
 * the one place a row becomes what a client, an event or a list reads.
 */

export function chargeTokenView(token: TokenViewRow): ChargeToken {
  return {
    type: 'token',
    id: token.id,
    card: {
      fundingType: token.funding,
      country: token.country,
      last4Digits: token.last4,
      type: `${token.brand}_${token.funding}`,
      brand: token.brand,
      bank: token.bank,
      name: token.name,
      authorization: token.authorization,
      addressLine1: token.address_line1,
      addressLine2: token.address_line2,
      addressCity: token.address_city,
      addressState: token.address_state,
      addressZip: token.address_zip,
      addressCountry: token.address_country,
    },
    created: epochSeconds(token.created_at),
  };
}

export function tokenView(token: TokensTable): Token {
  return { ...chargeTokenView(token), mode: token.mode };
}

export function chargeView(charge: ChargeViewRow, token: TokenViewRow, deps: ServiceDeps): Charge {
  return {
    type: 'charge',
    id: charge.id,
    currency: charge.currency,
    amount: charge.amount,
    amount_captured: charge.amount_captured,
    amount_refunded: charge.amount_refunded,
    fees: charge.fees,
    description: charge.description,
    txn_reference: charge.txn_reference,
    threedSecure: {
      redirect: threeDSRedirect(deps.threeDSUrl(), deps.secrets.threeDSKey, charge.id),
      returnUrl: charge.return_url,
      status: charge.threeds_status,
      transStatus: charge.threeds_trans_status,
    },
    status: charge.status,
    reason: charge.reason,
    token: chargeTokenView(token),
    created: epochSeconds(charge.created_at),
    mode: charge.mode,
    metadata: storedMetadata(charge.metadata),
  };
}

export function refundView(refund: RefundsTable): Refund {
  return {
    type: 'refund',
    id: refund.id,
    charge: refund.charge_id,
    currency: refund.currency,
    amount: refund.amount,
    fee_refunded: refund.fee_refunded,
    status: 'REFUNDED',
    created: isoSecondsUtc(refund.created_at),
    mode: refund.mode,
    metadata: storedMetadata(refund.metadata),
  };
}

/** Written by the services from a checked object, so it parses back to one. */
function storedMetadata(json: string): Metadata {
  return JSON.parse(json) as Metadata;
}
