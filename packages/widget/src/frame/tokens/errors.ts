import type { ErrorBody } from '@payframe/contract';
import type { Field } from '../../protocol/names.ts';
import type { Validity } from '../card/validate.ts';
import type { ErrorKey } from '../i18n/en.ts';
import { API_PARAMETER, fieldOfParameter } from './parameters.ts';

/**
 * What createToken resolves with when the frame refuses the card before asking the API: the code the
 * API itself would answer, so merchants handle one vocabulary. The message is the shopper's text.
 */
export function validationError(field: Field, validity: Validity, message: string): ErrorBody {
  const parameter = API_PARAMETER[field];
  if ('error' in validity && validity.error === 'numberInvalid') {
    return { type: 'card_error', message, error: { code: 'INCORRECT_NUMBER', message, parameter } };
  }
  if ('error' in validity && validity.error === 'expiryPast') {
    return { type: 'card_error', message, error: { code: 'EXPIRED_CARD', message, parameter: 'card.exp_year' } };
  }
  const code = validity.state === 'empty' ? 'PARAMETER_MISSING' : 'PARAMETER_INVALID';
  return { type: 'invalid_request_error', message, error: { code, message, parameter } };
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
