import type { ErrorBody } from '@payframe/contract';
import type { Field } from '../../protocol/names.ts';
import { digitsOf } from '../card/format.ts';
import type { Validity } from '../card/validate.ts';
import type { ErrorKey } from '../i18n/en.ts';
import { API_PARAMETER, fieldOfParameter } from './parameters.ts';

/**
 * What createToken resolves with when the frame refuses the card before asking the API: what the API
 * itself answers for what the frame would send, so merchants handle one vocabulary (server:
 * CreateTokenBodySchema, then services/tokens.ts). The message is the shopper's text.
 */
export function validationError(field: Field, value: string, validity: Validity, message: string): ErrorBody {
  let parameter = API_PARAMETER[field];
  // An empty field is reported as the API reports a parameter not sent.
  if (validity.state === 'empty') return { type: 'invalid_request_error', message, error: { code: 'PARAMETER_MISSING', message, parameter } };
  // Any 1 to 19 digits (all the input holds) pass the API's schema; it answers INCORRECT_NUMBER to any of no card, short ones too.
  if (field === 'card-number') return { type: 'card_error', message, error: { code: 'INCORRECT_NUMBER', message, parameter } };
  if (field === 'card-expiry') {
    if ('error' in validity && validity.error === 'expiryPast') {
      return { type: 'card_error', message, error: { code: 'EXPIRED_CARD', message, parameter: 'card.exp_year' } };
    }
    // A month the API takes leaves the year (`20` and what was typed of it) as the parameter it refuses.
    const month = Number(digitsOf(value).slice(0, 2));
    if (month >= 1 && month <= 12) parameter = 'card.exp_year';
  }
  return { type: 'invalid_request_error', message, error: { code: 'PARAMETER_INVALID', message, parameter } };
}

/** Where to show an API error in the frame, and which localized text to show. */
export function placeApiError(error: ErrorBody, visible: readonly Field[]): { field: Field | 'form'; key: ErrorKey } {
  switch (error.error.code) {
    case 'INCORRECT_NUMBER':
      return { field: 'card-number', key: 'incorrectNumber' };
    case 'EXPIRED_CARD':
      return { field: 'card-expiry', key: 'expiredCard' };
    case 'INCORRECT_CVC':
      return { field: 'card-cvc', key: 'incorrectCvc' };
    case 'DECLINED':
      return { field: 'form', key: 'declined' };
    case 'RATE_LIMITED':
      return { field: 'form', key: 'rateLimited' };
    case 'SERVICE_UNAVAILABLE':
      return { field: 'form', key: 'unavailable' };
    case 'PARAMETER_MISSING':
    case 'PARAMETER_INVALID': {
      const field = fieldOfParameter(error.error.parameter);
      if (field && visible.includes(field)) return { field, key: error.error.code === 'PARAMETER_MISSING' ? 'required' : 'invalid' };
      return { field: 'form', key: 'failed' };
    }
    default:
      return { field: 'form', key: 'failed' };
  }
}
