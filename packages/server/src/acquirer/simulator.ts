import { findTestCard } from '@payframe/contract/test-cards';
import type { Acquirer, AuthorizationRequest } from './acquirer.ts';

/**
 * Approves every card but the documented declining test cards, and runs each 3-D Secure test card's
 * scenario; in live mode it refuses test cards outright.
 */
export const simulatorAcquirer: Acquirer = {
  name: 'simulator',
  async authorize({ card, mode }: AuthorizationRequest) {
    const testCard = findTestCard(card.number);
    if (!testCard) return { approved: true };
    if (mode === 'live') return { approved: false, code: 'DECLINED', declineReason: 'TEST_CARD_IN_LIVE_MODE' };
    return testCard.scenario ? { ...testCard.outcome, threeDSScenario: testCard.scenario } : testCard.outcome;
  },
};

export const ACQUIRERS: Record<string, Acquirer> = { simulator: simulatorAcquirer };
