import type { Mode } from '@payframe/contract';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest } from './acquirer.ts';
import { ACQUIRERS, simulatorAcquirer } from './simulator.ts';

function request(number: string, mode: Mode): AuthorizationRequest {
  return { card: { number, cvc: '123', expMonth: 12, expYear: 2034 }, amount: 5000, currency: 'EUR', mode };
}

const CARDS = Object.values(TEST_CARDS);

const OTHER_CARDS = ['4111111111111111', '5105105105105100', '378282246310005', '6011111111111117', '9999999999999995'];

describe('simulator acquirer', () => {
  it('is registered as "simulator"', () => {
    expect(simulatorAcquirer.name).toBe('simulator');
    expect(ACQUIRERS.simulator).toBe(simulatorAcquirer);
  });

  describe('test mode: the test cards decide', () => {
    it.each(CARDS)("$number → the table's outcome, with its 3-D Secure scenario", async (card) => {
      const scenario = 'scenario' in card ? { threeDSScenario: card.scenario } : {};
      expect(await simulatorAcquirer.authorize(request(card.number, 'test'))).toStrictEqual({ ...card.outcome, ...scenario });
    });

    it('declines with each code the table documents', async () => {
      const answers = await Promise.all(CARDS.map(({ number }) => simulatorAcquirer.authorize(request(number, 'test'))));
      const codes = new Set(answers.map((answer) => (answer.approved ? 'approved' : answer.code)));
      expect(codes).toEqual(new Set(['approved', 'DECLINED', 'EXPIRED_CARD', 'INCORRECT_CVC']));
    });

    it.each(OTHER_CARDS)('non-test card %s is approved', async (number) => {
      expect(await simulatorAcquirer.authorize(request(number, 'test'))).toStrictEqual({ approved: true });
    });
  });

  describe('live mode', () => {
    it.each(CARDS)('test card $number is declined with TEST_CARD_IN_LIVE_MODE', async ({ number }) => {
      expect(await simulatorAcquirer.authorize(request(number, 'live'))).toStrictEqual({
        approved: false,
        code: 'DECLINED',
        declineReason: 'TEST_CARD_IN_LIVE_MODE',
      });
    });

    it.each(OTHER_CARDS)('non-test card %s is approved', async (number) => {
      expect(await simulatorAcquirer.authorize(request(number, 'live'))).toStrictEqual({ approved: true });
    });
  });
});
