import { type DeclineReason, ERROR_CODES, PayframeError } from '@payframe/contract';

/*
 * Services have one error channel: they throw PayframeError. A thrown error rolls the request's
 * transaction back, which is what every refusal needs, and it travels up from any depth without
 * each caller passing it on. The one failure whose writes must stand is a card decline (402): the
 * token it spent stays spent. It is a PayframeError too, of this subclass, and the mutation runner
 * (services/idempotency.ts) commits the transaction, with the 402 stored for replay in it, before
 * the error goes on to the error handler. See docs/architecture.md, "One error channel".
 */

/** The codes an issuer's answer can decline a charge with; their messages are the catalogue's. */
export type DeclineCode = 'DECLINED' | 'EXPIRED_CARD' | 'INCORRECT_CVC';

/** A card decline: refuses the request (402) but keeps what the attempt wrote. */
export class CardDeclined extends PayframeError {
  constructor(code: DeclineCode, declineReason?: DeclineReason) {
    super(code, ERROR_CODES[code].message, {
      ...(declineReason ? { declineReason } : {}),
      ...(code === 'INCORRECT_CVC' ? { parameter: 'card.cvc' } : {}),
    });
  }
}
