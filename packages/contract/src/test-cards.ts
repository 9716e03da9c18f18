import type { Authorization, Brand, Funding } from './card.ts';
import type { DeclineReason, ErrorCode } from './errors.ts';

/**
 * The documented test cards (docs/api.md "Test cards"): in test mode the number decides the outcome.
 * Plain data with type-only imports, so the widget frame and the QA kit can take it without zod.
 */

/** What the simulated issuer answers for a card in test mode. */
export type IssuerOutcome =
  | { approved: true }
  | { approved: false; code: Extract<ErrorCode, 'DECLINED' | 'EXPIRED_CARD' | 'INCORRECT_CVC'>; declineReason?: DeclineReason };

/**
 * How the simulated issuer runs 3-D Secure for a card that requires it (docs/three-d-secure.md
 * "Scenarios"): `challenge` is the two-button page where the shopper chooses the outcome.
 */
export type ThreeDSScenario = 'challenge' | 'otp' | 'out-of-band' | 'frictionless' | 'rejected' | 'unavailable';

export type TestCard = {
  number: string;
  brand: Brand;
  funding: Funding;
  country: string;
  bank: string;
  /** `REQUIRED`: the charge waits for 3-D Secure; `NOT_AVAILABLE`: it is captured at once. */
  authorization: Authorization;
  outcome: IssuerOutcome;
  /** Only on cards whose authorization is `REQUIRED`. */
  scenario?: ThreeDSScenario;
};

/** Documented as an approved Maestro test card although it fails Luhn: accept it wherever numbers are checked. */
export const LUHN_EXEMPT_TEST_CARD = '6759649826438450';

const US = 'PAYFRAME TEST BANK US';
const UK = 'PAYFRAME TEST BANK UK';
const FR = 'PAYFRAME BANQUE TEST';
const IN = 'PAYFRAME TEST BANK INDIA';
const DE = 'PAYFRAME TESTBANK DE';
const ES = 'PAYFRAME BANCO DE PRUEBAS';
const APPROVED = { approved: true } as const;

export const TEST_CARDS = {
  visa: { number: '4242424242424242', brand: 'VISA', funding: 'CREDIT', country: 'US', bank: US, authorization: 'NOT_AVAILABLE', outcome: APPROVED },
  visa3DS: {
    number: '4000000000003220',
    brand: 'VISA',
    funding: 'CREDIT',
    country: 'GB',
    bank: UK,
    authorization: 'REQUIRED',
    outcome: APPROVED,
    scenario: 'challenge',
  },
  mastercard3DS: {
    number: '5555555555554444',
    brand: 'MASTERCARD',
    funding: 'CREDIT',
    country: 'GB',
    bank: UK,
    authorization: 'REQUIRED',
    outcome: APPROVED,
    scenario: 'challenge',
  },
  mastercardDebit: {
    number: '5454545454545454',
    brand: 'MASTERCARD',
    funding: 'DEBIT',
    country: 'FR',
    bank: FR,
    authorization: 'NOT_AVAILABLE',
    outcome: APPROVED,
  },
  visaFrance3DS: {
    number: '4444333322221111',
    brand: 'VISA',
    funding: 'CREDIT',
    country: 'FR',
    bank: FR,
    authorization: 'REQUIRED',
    outcome: APPROVED,
    scenario: 'challenge',
  },
  visaDebitIndia: { number: '4462030000000000', brand: 'VISA', funding: 'DEBIT', country: 'IN', bank: IN, authorization: 'NOT_AVAILABLE', outcome: APPROVED },
  maestro3DS: {
    number: LUHN_EXEMPT_TEST_CARD,
    brand: 'MAESTRO',
    funding: 'DEBIT',
    country: 'GB',
    bank: UK,
    authorization: 'REQUIRED',
    outcome: APPROVED,
    scenario: 'challenge',
  },
  otp3DS: {
    number: '4000000000003063',
    brand: 'VISA',
    funding: 'CREDIT',
    country: 'GB',
    bank: UK,
    authorization: 'REQUIRED',
    outcome: APPROVED,
    scenario: 'otp',
  },
  outOfBand3DS: {
    number: '4000000000003097',
    brand: 'VISA',
    funding: 'CREDIT',
    country: 'DE',
    bank: DE,
    authorization: 'REQUIRED',
    outcome: APPROVED,
    scenario: 'out-of-band',
  },
  frictionless3DS: {
    number: '4000000000003246',
    brand: 'VISA',
    funding: 'CREDIT',
    country: 'FR',
    bank: FR,
    authorization: 'REQUIRED',
    outcome: APPROVED,
    scenario: 'frictionless',
  },
  rejected3DS: {
    number: '4000000000003287',
    brand: 'VISA',
    funding: 'CREDIT',
    country: 'US',
    bank: US,
    authorization: 'REQUIRED',
    outcome: APPROVED,
    scenario: 'rejected',
  },
  unavailable3DS: {
    number: '4000000000003295',
    brand: 'VISA',
    funding: 'CREDIT',
    country: 'ES',
    bank: ES,
    authorization: 'REQUIRED',
    outcome: APPROVED,
    scenario: 'unavailable',
  },
  declined: {
    number: '4000000000000002',
    brand: 'VISA',
    funding: 'CREDIT',
    country: 'US',
    bank: US,
    authorization: 'NOT_AVAILABLE',
    outcome: { approved: false, code: 'DECLINED', declineReason: 'GENERIC_DECLINE' },
  },
  insufficientFunds: {
    number: '4000000000009995',
    brand: 'VISA',
    funding: 'DEBIT',
    country: 'US',
    bank: US,
    authorization: 'NOT_AVAILABLE',
    outcome: { approved: false, code: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' },
  },
  expiredCard: {
    number: '4000000000000069',
    brand: 'VISA',
    funding: 'CREDIT',
    country: 'US',
    bank: US,
    authorization: 'NOT_AVAILABLE',
    outcome: { approved: false, code: 'EXPIRED_CARD' },
  },
  incorrectCvc: {
    number: '4000000000000127',
    brand: 'VISA',
    funding: 'CREDIT',
    country: 'US',
    bank: US,
    authorization: 'NOT_AVAILABLE',
    outcome: { approved: false, code: 'INCORRECT_CVC' },
  },
} as const satisfies Record<string, TestCard>;

export type TestCardName = keyof typeof TEST_CARDS;

/** The test card with this number, if it is one. A function, so bundles that only need the Maestro number leave the table out. */
export function findTestCard(number: string): TestCard | undefined {
  return Object.values<TestCard>(TEST_CARDS).find((card) => card.number === number);
}

/** The one-time code of the `otp` scenario in test mode; a resend sends it again. */
export const TEST_ONE_TIME_CODE = '123456';
