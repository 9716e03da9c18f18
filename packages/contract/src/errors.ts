import { z } from 'zod';

export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'card_error',
  'idempotency_error',
  'rate_limit_error',
  'api_error',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** `message` is the default: what the error says when the thrower has nothing more specific. */
type ErrorDefinition = { status: number; type: ErrorType; message: string };

/**
 * Every error code the API can answer, with its default HTTP status, error type and message (docs/api.md "Errors").
 * `card_error` only where the shopper must act (another card, re-enter it, authenticate); a request
 * that conflicts with a charge's state is the merchant's to fix: 402, but `invalid_request_error`.
 */
export const ERROR_CODES = {
  PARAMETER_MISSING: { status: 400, type: 'invalid_request_error', message: 'A required parameter is missing.' },
  PARAMETER_INVALID: { status: 400, type: 'invalid_request_error', message: 'A parameter is invalid.' },
  PARAMETER_UNKNOWN: { status: 400, type: 'invalid_request_error', message: 'The request has a parameter this operation does not take.' },
  LIMIT_EXCEEDED: { status: 400, type: 'invalid_request_error', message: 'The account has reached a limit on objects of this kind.' },
  RESOURCE_MISSING: { status: 404, type: 'invalid_request_error', message: 'No such resource.' },
  IDEMPOTENCY_KEY_REUSED: { status: 400, type: 'idempotency_error', message: 'This Idempotency-Key was used with different parameters.' },
  INVALID_API_KEY: { status: 401, type: 'authentication_error', message: 'Invalid API key provided.' },
  INVALID_CREDENTIALS: { status: 401, type: 'authentication_error', message: 'The e-mail or password is not correct.' },
  SESSION_EXPIRED: { status: 401, type: 'authentication_error', message: 'There is no session, or it has expired: sign in again.' },
  DECLINED: { status: 402, type: 'card_error', message: 'The card was declined.' },
  EXPIRED_CARD: { status: 402, type: 'card_error', message: 'The card has expired.' },
  INCORRECT_NUMBER: { status: 402, type: 'card_error', message: 'The card number is not a valid card number.' },
  INCORRECT_CVC: { status: 402, type: 'card_error', message: "The card's security code is incorrect." },
  PROCESSING_ERROR: { status: 402, type: 'card_error', message: 'An error occurred while processing the card; retry shortly.' },
  TOKEN_ALREADY_USED: { status: 402, type: 'invalid_request_error', message: 'The token has already been used.' },
  TOKEN_EXPIRED: { status: 402, type: 'card_error', message: 'The token has expired: a token can be charged for 15 minutes after it is made.' },
  CHARGE_ALREADY_CAPTURED: { status: 402, type: 'invalid_request_error', message: 'The charge has already been captured.' },
  CHARGE_ALREADY_REFUNDED: { status: 402, type: 'invalid_request_error', message: 'The charge has already been refunded.' },
  CHARGE_EXPIRED: { status: 402, type: 'invalid_request_error', message: 'The charge has expired.' },
  CHARGE_CANCELED: { status: 402, type: 'invalid_request_error', message: 'The charge has been canceled.' },
  AUTHENTICATION_REQUIRED: { status: 402, type: 'card_error', message: 'The charge needs 3-D Secure authentication first.' },
  AUTHENTICATION_FAILED: { status: 402, type: 'card_error', message: '3-D Secure authentication failed.' },
  AUTHENTICATION_NOT_PENDING: { status: 402, type: 'invalid_request_error', message: 'The charge is not waiting for 3-D Secure authentication.' },
  AMOUNT_EXCEEDS_REMAINING: { status: 402, type: 'invalid_request_error', message: 'The amount exceeds what remains to refund.' },
  PUBLISHABLE_KEY_NOT_ALLOWED: { status: 403, type: 'permission_error', message: 'This request needs a secret key; publishable keys may only create tokens.' },
  HTTPS_REQUIRED: { status: 403, type: 'permission_error', message: 'Live-mode requests must be made over HTTPS.' },
  LIVE_MODE_NOT_ALLOWED: { status: 403, type: 'permission_error', message: 'Live mode is not enabled on this server.' },
  CSRF_REJECTED: { status: 403, type: 'permission_error', message: "The request lacks its session's CSRF token or comes from another origin." },
  ROLE_NOT_ALLOWED: { status: 403, type: 'permission_error', message: 'Your role can only read: ask an admin of the account.' },
  ROUTE_NOT_FOUND: { status: 404, type: 'invalid_request_error', message: 'Unrecognized request URL.' },
  METHOD_NOT_ALLOWED: { status: 405, type: 'invalid_request_error', message: 'This method is not allowed on this URL.' },
  IDEMPOTENCY_CONFLICT: { status: 409, type: 'idempotency_error', message: 'A request with this Idempotency-Key is still being processed; retry shortly.' },
  BODY_TOO_LARGE: { status: 413, type: 'invalid_request_error', message: 'The request body is larger than 1 MB.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    type: 'invalid_request_error',
    message: 'Unsupported content type: send application/x-www-form-urlencoded, multipart/form-data or application/json.',
  },
  RATE_LIMITED: { status: 429, type: 'rate_limit_error', message: 'Too many requests: slow down and retry later.' },
  INTERNAL_ERROR: { status: 500, type: 'api_error', message: 'An internal error occurred. It has been logged; retry or contact support.' },
  SERVICE_UNAVAILABLE: { status: 503, type: 'api_error', message: 'The service is unavailable right now; retry shortly.' },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes only the dashboard's session API answers (docs/dashboard.md): not part of /v2. */
export const DASHBOARD_ONLY_CODES = ['INVALID_CREDENTIALS', 'SESSION_EXPIRED', 'CSRF_REJECTED', 'ROLE_NOT_ALLOWED'] as const satisfies readonly ErrorCode[];

/** Every code a /v2 answer may carry. */
export const API_ERROR_CODES = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => !(DASHBOARD_ONLY_CODES as readonly string[]).includes(code));
const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

export const DECLINE_REASONS = ['GENERIC_DECLINE', 'INSUFFICIENT_FUNDS', 'TEST_CARD_IN_LIVE_MODE'] as const;
const DeclineReasonSchema = z.enum(DECLINE_REASONS);
export type DeclineReason = z.infer<typeof DeclineReasonSchema>;

export const ErrorBodySchema = z
  .object({
    type: z.enum(ERROR_TYPES),
    message: z.string(),
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string(),
      parameter: z.string().optional(),
      decline_reason: DeclineReasonSchema.optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export type PayframeErrorOptions = {
  parameter?: string;
  declineReason?: DeclineReason;
  /** Overrides the code's default status, e.g. RESOURCE_MISSING for an unknown `token` parameter is 400. */
  status?: number;
  headers?: Record<string, string>;
};

/** The one error every layer throws; only the HTTP error handler turns it into JSON. */
export class PayframeError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly parameter: string | undefined;
  readonly declineReason: DeclineReason | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string = ERROR_CODES[code].message, options: PayframeErrorOptions = {}) {
    super(message);
    this.name = 'PayframeError';
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code].status;
    this.parameter = options.parameter;
    this.declineReason = options.declineReason;
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    return {
      type: ERROR_CODES[this.code].type,
      message: this.message,
      error: {
        code: this.code,
        message: this.message,
        ...(this.parameter === undefined ? {} : { parameter: this.parameter }),
        ...(this.declineReason === undefined ? {} : { decline_reason: this.declineReason }),
      },
    };
  }
}
