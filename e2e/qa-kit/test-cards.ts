// The test cards as the QA kit presents them: the contract's table, with each outcome as a checkout sees it.
import { type TestCard as ContractTestCard, TEST_CARDS as CARDS, type TestCardName } from '@payframe/contract/test-cards';

export type { TestCardName };

export type TestCardOutcome =
  | { kind: 'approved' }
  | { kind: 'approved-after-3ds' }
  | { kind: 'declined'; code: 'DECLINED'; declineReason: 'GENERIC_DECLINE' | 'INSUFFICIENT_FUNDS' }
  | { kind: 'declined'; code: 'EXPIRED_CARD' | 'INCORRECT_CVC' };

export type TestCard = Pick<ContractTestCard, 'number' | 'brand' | 'funding' | 'country' | 'authorization'> & { outcome: TestCardOutcome };

function outcomeOf({ outcome, authorization }: ContractTestCard): TestCardOutcome {
  if (outcome.approved) return { kind: authorization === 'REQUIRED' ? 'approved-after-3ds' : 'approved' };
  const { code } = outcome;
  return ('declineReason' in outcome ? { kind: 'declined', code, declineReason: outcome.declineReason } : { kind: 'declined', code }) as TestCardOutcome;
}

/** In test mode the number decides the outcome (docs/api.md "Test cards"). */
export const TEST_CARDS = Object.fromEntries(
  Object.entries(CARDS).map(([name, card]) => {
    const { number, brand, funding, country, authorization } = card;
    return [name, { number, brand, funding, country, authorization, outcome: outcomeOf(card) }];
  }),
) as Record<TestCardName, TestCard>;
