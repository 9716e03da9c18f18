import type { Authorization, Brand, DeclineReason, ErrorCode, Funding } from '@payframe/contract';

/** What the simulator's issuer answers for a card (DESIGN §8). */
export type IssuerOutcome =
  | { approved: true }
  | { approved: false; code: Extract<ErrorCode, 'DECLINED' | 'EXPIRED_CARD' | 'INCORRECT_CVC'>; declineReason?: DeclineReason };

export type TestCard = {
  brand: Brand;
  funding: Funding;
  country: string;
  bank: string;
  authorization: Authorization;
  outcome: IssuerOutcome;
};

const APPROVED: IssuerOutcome = { approved: true };

function card(brand: Brand, funding: Funding, country: string, bank: string, authorization: Authorization, outcome = APPROVED): TestCard {
  return { brand, funding, country, bank, authorization, outcome };
}

/** The documented test cards, keyed by number, with the BIN data they present. */
export const TEST_CARDS: ReadonlyMap<string, TestCard> = new Map([
  ['4242424242424242', card('VISA', 'CREDIT', 'US', 'PAYFRAME TEST BANK US', 'NOT_AVAILABLE')],
  ['4000000000003220', card('VISA', 'CREDIT', 'GB', 'PAYFRAME TEST BANK UK', 'REQUIRED')],
  ['5555555555554444', card('MASTERCARD', 'CREDIT', 'GB', 'PAYFRAME TEST BANK UK', 'REQUIRED')],
  ['5454545454545454', card('MASTERCARD', 'DEBIT', 'FR', 'PAYFRAME BANQUE TEST', 'NOT_AVAILABLE')],
  ['4444333322221111', card('VISA', 'CREDIT', 'FR', 'PAYFRAME BANQUE TEST', 'REQUIRED')],
  ['4462030000000000', card('VISA', 'DEBIT', 'IN', 'PAYFRAME TEST BANK INDIA', 'NOT_AVAILABLE')],
  ['6759649826438450', card('MAESTRO', 'DEBIT', 'GB', 'PAYFRAME TEST BANK UK', 'REQUIRED')],
  ['4000000000000002', card('VISA', 'CREDIT', 'US', 'PAYFRAME TEST BANK US', 'NOT_AVAILABLE', { approved: false, code: 'DECLINED', declineReason: 'GENERIC_DECLINE' })],
  ['4000000000009995', card('VISA', 'DEBIT', 'US', 'PAYFRAME TEST BANK US', 'NOT_AVAILABLE', { approved: false, code: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' })],
  ['4000000000000069', card('VISA', 'CREDIT', 'US', 'PAYFRAME TEST BANK US', 'NOT_AVAILABLE', { approved: false, code: 'EXPIRED_CARD' })],
  ['4000000000000127', card('VISA', 'CREDIT', 'US', 'PAYFRAME TEST BANK US', 'NOT_AVAILABLE', { approved: false, code: 'INCORRECT_CVC' })],
]);
