import type { Mode } from '@payframe/contract';
import { describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../domain/test-cards.ts';
import type { AuthorizationRequest } from './acquirer.ts';
import { ACQUIRERS, simulatorAcquirer } from './simulator.ts';

function request(number: string, mode: Mode): AuthorizationRequest {
  return { card: { number, cvc: '123', expMonth: 12, expYear: 2034 }, amount: 5000, currency: 'EUR', mode };
}

const APPROVING_TEST_CARDS = [
  '4242424242424242',
  '4000000000003220',
  '5555555555554444',
  '5454545454545454',
  '4444333322221111',
  '4462030000000000',
  '6759649826438450',
];

const OTHER_CARDS = ['4111111111111111', '5105105105105100', '378282246310005', '6011111111111117', '9999999999999995'];

describe('simulator acquirer', () => {
  it('is registered as "simulator"', () => {
    expect(simulatorAcquirer.name).toBe('simulator');
    expect(ACQUIRERS.simulator).toBe(simulatorAcquirer);
  });

  describe('test mode: DESIGN §8 outcomes', () => {
    it.each([
      ['4000000000000002', { approved: false, code: 'DECLINED', declineReason: 'GENERIC_DECLINE' }],
      ['4000000000009995', { approved: false, code: 'DECLINED', declineReason: 'INSUFFICIENT_FUNDS' }],
      ['4000000000000069', { approved: false, code: 'EXPIRED_CARD' }],
      ['4000000000000127', { approved: false, code: 'INCORRECT_CVC' }],
    ])('%s → %o', async (number, outcome) => {
      expect(await simulatorAcquirer.authorize(request(number, 'test'))).toStrictEqual(outcome);
    });

    it.each(APPROVING_TEST_CARDS)('%s is approved', async (number) => {
      expect(await simulatorAcquirer.authorize(request(number, 'test'))).toStrictEqual({ approved: true });
    });

    it.each(OTHER_CARDS)('non-test card %s is approved', async (number) => {
      expect(await simulatorAcquirer.authorize(request(number, 'test'))).toStrictEqual({ approved: true });
    });
  });

  describe('live mode', () => {
    it.each([...TEST_CARDS.keys()])('test card %s is declined with TEST_CARD_IN_LIVE_MODE', async (number) => {
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
