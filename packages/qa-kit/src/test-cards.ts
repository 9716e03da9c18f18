/** The test cards of README "Test cards" as data: in test mode the number decides the outcome. */

export type TestCardOutcome =
  | { kind: 'approved' }
  | { kind: 'approved-after-3ds' }
  | { kind: 'declined'; code: 'DECLINED'; declineReason: 'GENERIC_DECLINE' | 'INSUFFICIENT_FUNDS' }
  | { kind: 'declined'; code: 'EXPIRED_CARD' | 'INCORRECT_CVC' };

export type TestCard = {
  number: string;
  brand: 'VISA' | 'MASTERCARD' | 'MAESTRO';
  funding: 'CREDIT' | 'DEBIT';
  country: string;
  /** `REQUIRED`: the charge waits for 3-D Secure; `NOT_AVAILABLE`: it can be captured at once. */
  authorization: 'REQUIRED' | 'NOT_AVAILABLE';
  outcome: TestCardOutcome;
};

const approved = { kind: 'approved' } as const;
const after3ds = { kind: 'approved-after-3ds' } as const;

export const TEST_CARDS = {
  visa: { number: '4242424242424242', brand: 'VISA', funding: 'CREDIT', country: 'US', authorization: 'NOT_AVAILABLE', outcome: approved },
  visa3DS: { number: '4000000000003220', brand: 'VISA', funding: 'CREDIT', country: 'GB', authorization: 'REQUIRED', outcome: after3ds },
  mastercard3DS: { number: '5555555555554444', brand: 'MASTERCARD', funding: 'CREDIT', country: 'GB', authorization: 'REQUIRED', outcome: after3ds },
  mastercardDebit: { number: '5454545454545454', brand: 'MASTERCARD', funding: 'DEBIT', country: 'FR', authorization: 'NOT_AVAILABLE', outcome: approved },
  visaFrance3DS: { number: '4444333322221111', brand: 'VISA', funding: 'CREDIT', country: 'FR', authorization: 'REQUIRED', outcome: after3ds },
  visaDebitIndia: { number: '4462030000000000', brand: 'VISA', funding: 'DEBIT', country: 'IN', authorization: 'NOT_AVAILABLE', outcome: approved },
  maestro3DS: { number: '6759649826438450', brand: 'MAESTRO', funding: 'DEBIT', country: 'GB', authorization: 'REQUIRED', outcome: after3ds },
  declined: {
    number: '4000000000000002', brand: 'VISA', funding: 'CREDIT', country: 'US', authorization: 'NOT_AVAILABLE',
    outcome: { kind: 'declined', code: 'DECLINED', declineReason: 'GENERIC_DECLINE' },
  },
  insufficientFunds: {
    number: '4000000000009995', brand: 'VISA', funding: 'DEBIT', country: 'US', authorization: 'NOT_AVAILABLE',
    outcome: { kind: 'declined', code: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' },
  },
  expiredCard: {
    number: '4000000000000069', brand: 'VISA', funding: 'CREDIT', country: 'US', authorization: 'NOT_AVAILABLE',
    outcome: { kind: 'declined', code: 'EXPIRED_CARD' },
  },
  incorrectCvc: {
    number: '4000000000000127', brand: 'VISA', funding: 'CREDIT', country: 'US', authorization: 'NOT_AVAILABLE',
    outcome: { kind: 'declined', code: 'INCORRECT_CVC' },
  },
} as const satisfies Record<string, TestCard>;

export type TestCardName = keyof typeof TEST_CARDS;
