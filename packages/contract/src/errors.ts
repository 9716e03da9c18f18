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

type ErrorDefinition = { status: number; type: ErrorType };

/** Every error code the API can answer, with its default HTTP status and error type (DESIGN §5). */
export const ERROR_CODES = {
  PARAMETER_MISSING: { status: 400, type: 'invalid_request_error' },
  PARAMETER_INVALID: { status: 400, type: 'invalid_request_error' },
  RESOURCE_MISSING: { status: 404, type: 'invalid_request_error' },
  IDEMPOTENCY_KEY_REUSED: { status: 400, type: 'idempotency_error' },
  INVALID_API_KEY: { status: 401, type: 'authentication_error' },
  INVALID_CREDENTIALS: { status: 401, type: 'authentication_error' },
  SESSION_EXPIRED: { status: 401, type: 'authentication_error' },
  DECLINED: { status: 402, type: 'card_error' },
  EXPIRED_CARD: { status: 402, type: 'card_error' },
  INCORRECT_NUMBER: { status: 402, type: 'card_error' },
  INCORRECT_CVC: { status: 402, type: 'card_error' },
  PROCESSING_ERROR: { status: 402, type: 'card_error' },
  TOKEN_ALREADY_USED: { status: 402, type: 'card_error' },
  TOKEN_EXPIRED: { status: 402, type: 'card_error' },
  CHARGE_ALREADY_CAPTURED: { status: 402, type: 'card_error' },
  CHARGE_ALREADY_REFUNDED: { status: 402, type: 'card_error' },
  CHARGE_EXPIRED: { status: 402, type: 'card_error' },
  CHARGE_CANCELED: { status: 402, type: 'card_error' },
  AUTHENTICATION_REQUIRED: { status: 402, type: 'card_error' },
  AUTHENTICATION_FAILED: { status: 402, type: 'card_error' },
  AUTHENTICATION_NOT_PENDING: { status: 402, type: 'card_error' },
  AMOUNT_EXCEEDS_REMAINING: { status: 402, type: 'card_error' },
  PUBLISHABLE_KEY_NOT_ALLOWED: { status: 403, type: 'permission_error' },
  HTTPS_REQUIRED: { status: 403, type: 'permission_error' },
  LIVE_MODE_NOT_ALLOWED: { status: 403, type: 'permission_error' },
  CSRF_REJECTED: { status: 403, type: 'permission_error' },
  ROLE_NOT_ALLOWED: { status: 403, type: 'permission_error' },
  ROUTE_NOT_FOUND: { status: 404, type: 'invalid_request_error' },
  METHOD_NOT_ALLOWED: { status: 405, type: 'invalid_request_error' },
  IDEMPOTENCY_CONFLICT: { status: 409, type: 'idempotency_error' },
  BODY_TOO_LARGE: { status: 413, type: 'invalid_request_error' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, type: 'invalid_request_error' },
  RATE_LIMITED: { status: 429, type: 'rate_limit_error' },
  INTERNAL_ERROR: { status: 500, type: 'api_error' },
  SERVICE_UNAVAILABLE: { status: 503, type: 'api_error' },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

export const DECLINE_REASONS = ['GENERIC_DECLINE', 'INSUFFICIENT_FUNDS', 'TEST_CARD_IN_LIVE_MODE'] as const;
export const DeclineReasonSchema = z.enum(DECLINE_REASONS);
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

  constructor(code: ErrorCode, message: string, options: PayframeErrorOptions = {}) {
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
