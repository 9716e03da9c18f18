import { CardError, type Charge, type PayframeError } from '@payframe/node';

/** What the shopper reads when the charge is refused (402), by decline reason or error code. */
export function declineMessage(error: PayframeError): string {
  switch ((error instanceof CardError ? error.declineReason : undefined) ?? error.code) {
    case 'INSUFFICIENT_FUNDS':
      return 'Your card has insufficient funds. Try another card.';
    case 'GENERIC_DECLINE':
    case 'DECLINED':
      return 'Your card was declined. Try another card or contact your bank.';
    case 'EXPIRED_CARD':
      return 'Your card has expired. Try another card.';
    case 'INCORRECT_CVC':
      return 'Your card’s security code is incorrect. Check it and try again.';
    case 'INCORRECT_NUMBER':
      return 'Your card number is incorrect.';
    case 'TOKEN_ALREADY_USED':
      return 'This payment was already attempted. Enter your card again.';
    default:
      return 'The payment could not be completed. Try another card.';
  }
}

export const AUTHENTICATION_FAILED = 'Authentication failed, try another card.';

/** Messages of the receipt page after a refund, by the code in its query string. */
const REFUND_ERRORS: Record<string, string> = {
  INVALID_AMOUNT: 'Enter an amount to refund, such as 2.50.',
  AMOUNT_EXCEEDS_REMAINING: 'That is more than what remains to refund.',
  CHARGE_ALREADY_REFUNDED: 'This order is already refunded in full.',
  CHARGE_EXPIRED: 'This order expired before it was paid; nothing to refund.',
  CHARGE_CANCELED: 'This order was canceled; nothing to refund.',
};

/** The query string is the visitor's: only the table's own entries count, never inherited ones such as `constructor`. */
export function refundErrorMessage(code: string): string {
  return (Object.hasOwn(REFUND_ERRORS, code) ? REFUND_ERRORS[code] : undefined) ?? 'The refund could not be made.';
}

export type OrderState = { key: string; label: string; tone: 'ok' | 'waiting' | 'bad' | 'neutral' };

export const EXPIRED: OrderState = { key: 'expired', label: 'Expired — never captured, authorization released', tone: 'bad' };

/** The order's state as the shop shows it, from the live charge. */
export function orderState(charge: Charge, authenticationFailed: boolean): OrderState {
  switch (charge.status) {
    case 'CHARGE_SUCCESS':
      return { key: 'paid', label: 'Paid', tone: 'ok' };
    case 'PARTIALLY_REFUNDED':
      return { key: 'partially-refunded', label: 'Partially refunded', tone: 'neutral' };
    case 'REFUNDED':
      return charge.reason === 'EXPIRED' ? EXPIRED : { key: 'refunded', label: 'Refunded', tone: 'neutral' };
    case 'CHARGE_FAILED':
      return authenticationFailed
        ? { key: 'authentication-failed', label: 'Authentication failed', tone: 'bad' }
        : { key: 'canceled', label: 'Canceled', tone: 'bad' };
    case 'PENDING':
      switch (charge.threedSecure.status) {
        case 'PENDING':
          return { key: 'awaiting-authentication', label: 'Awaiting 3-D Secure', tone: 'waiting' };
        case 'FAILED':
          return { key: 'authentication-failed', label: 'Authentication failed', tone: 'bad' };
        default:
          return { key: 'authorized', label: 'Authorized, not captured', tone: 'waiting' };
      }
  }
}
