import type { EventName } from '@payframe/contract';
import { TEST_CARDS } from '@payframe/contract/test-cards';

/** What `payframe trigger` does to the charge after creating it, each one HTTP call of the API. */
export type TriggerMove = 'authenticate-success' | 'authenticate-failure' | 'capture' | 'cancel' | 'refund' | 'expire' | 'update-metadata';

/**
 * For each event name, the card to charge and the moves that make the event happen (docs/cli.md,
 * "payframe trigger"). A Record, so that an event name added to the contract cannot be left
 * without a way to trigger it.
 */
export const TRIGGER_PLANS: Record<EventName, { card: string; moves: TriggerMove[] }> = {
  'charge.created': { card: TEST_CARDS.visa.number, moves: [] },
  'charge.authentication_succeeded': { card: TEST_CARDS.visa3DS.number, moves: ['authenticate-success'] },
  'charge.authentication_failed': { card: TEST_CARDS.visa3DS.number, moves: ['authenticate-failure'] },
  // The issuer is down: the test helper's `success` gives this card's own outcome, U.
  'charge.authentication_unavailable': { card: TEST_CARDS.unavailable3DS.number, moves: ['authenticate-success'] },
  'charge.captured': { card: TEST_CARDS.visa.number, moves: ['capture'] },
  'charge.canceled': { card: TEST_CARDS.visa.number, moves: ['cancel'] },
  'charge.refunded': { card: TEST_CARDS.visa.number, moves: ['capture', 'refund'] },
  // The per-charge helper, not the account clock: other tests on the account are not disturbed.
  'charge.expired': { card: TEST_CARDS.visa.number, moves: ['expire'] },
  'charge.updated': { card: TEST_CARDS.visa.number, moves: ['update-metadata'] },
};

/** The request each move makes, for the charge `id`. */
export const MOVE_REQUESTS: Record<TriggerMove, (id: string) => { path: string; body?: Record<string, unknown> }> = {
  'authenticate-success': (id) => ({ path: `/v2/test_helpers/charges/${id}/authenticate`, body: { result: 'success' } }),
  'authenticate-failure': (id) => ({ path: `/v2/test_helpers/charges/${id}/authenticate`, body: { result: 'failure' } }),
  capture: (id) => ({ path: `/v2/charges/capture/${id}` }),
  cancel: (id) => ({ path: `/v2/charges/cancel/${id}` }),
  refund: (id) => ({ path: `/v2/charges/refund/${id}` }),
  expire: (id) => ({ path: `/v2/test_helpers/charges/${id}/expire` }),
  'update-metadata': (id) => ({ path: `/v2/charges/${id}`, body: { metadata: { source: 'payframe-trigger' } } }),
};
