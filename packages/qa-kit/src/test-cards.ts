// The test cards as the QA kit presents them: the contract's table, with each outcome as a checkout sees it.
import { TEST_CARDS as CARDS, type TestCard as ContractTestCard, type TestCardName } from '@payframe/contract/test-cards';

export type { TestCardName };

export type TestCardOutcome =
  | { kind: 'approved' }
  | { kind: 'approved-after-3ds' }
  | { kind: 'declined'; code: 'DECLINED'; declineReason: 'GENERIC_DECLINE' | 'INSUFFICIENT_FUNDS' }
  | { kind: 'declined'; code: 'EXPIRED_CARD' | 'INCORRECT_CVC' };

export type TestCard = Pick<ContractTestCard, 'number' | 'brand' | 'funding' | 'country' | 'authorization' | 'scenario'> & { outcome: TestCardOutcome };

/** Each card keeps its own outcome's type, so `TEST_CARDS.declined.outcome.declineReason` type-checks. */
type OutcomeOfCard<Card> = Card extends { outcome: { approved: true }; authorization: 'REQUIRED' }
  ? { kind: 'approved-after-3ds' }
  : Card extends { outcome: { approved: true } }
    ? { kind: 'approved' }
    : Card extends { outcome: { code: infer Code; declineReason: infer Reason } }
      ? { kind: 'declined'; code: Code; declineReason: Reason }
      : Card extends { outcome: { code: infer Code } }
        ? { kind: 'declined'; code: Code }
        : never;

function outcomeOf({ outcome, authorization }: ContractTestCard): TestCardOutcome {
  if (outcome.approved) return { kind: authorization === 'REQUIRED' ? 'approved-after-3ds' : 'approved' };
  const { code } = outcome;
  return ('declineReason' in outcome ? { kind: 'declined', code, declineReason: outcome.declineReason } : { kind: 'declined', code }) as TestCardOutcome;
}

/** In test mode the number decides the outcome (docs/api.md "Test cards"). */
export const TEST_CARDS = Object.fromEntries(
  Object.entries(CARDS).map(([name, card]) => {
    const { number, brand, funding, country, authorization } = card;
    const scenario = 'scenario' in card ? { scenario: card.scenario } : {};
    return [name, { number, brand, funding, country, authorization, ...scenario, outcome: outcomeOf(card) }];
  }),
) as { [Name in TestCardName]: Omit<TestCard, 'outcome'> & { outcome: OutcomeOfCard<(typeof CARDS)[Name]> } };
