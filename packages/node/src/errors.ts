import type { DeclineReason, ErrorBody, ErrorCode, ErrorType } from '@payframe/contract';

/** An answer that was not the API's JSON error shape (a proxy's HTML page, a cut-off body). */
export type UnexpectedResponseCode = 'UNEXPECTED_RESPONSE';

/** Every error the API answered; `type` picks the subclass. */
export class PayframeError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly code: ErrorCode | UnexpectedResponseCode;
  /** The request parameter at fault, dotted (`card.exp_month`), when the API named one. */
  readonly parameter: string | undefined;
  readonly headers: Headers;

  constructor(status: number, body: ErrorBody | undefined, headers: Headers) {
    const message = body?.error.message ?? `Unexpected answer with status ${status}`;
    super(message);
    this.name = new.target.name;
    this.type = body?.type ?? 'api_error';
    this.status = status;
    this.code = body?.error.code ?? 'UNEXPECTED_RESPONSE';
    this.parameter = body?.error.parameter;
    this.headers = headers;
  }
}

/** 402: the card or the charge refused the operation. */
export class CardError extends PayframeError {
  readonly declineReason: DeclineReason | undefined;

  constructor(status: number, body: ErrorBody | undefined, headers: Headers) {
    super(status, body, headers);
    this.declineReason = body?.error.decline_reason;
  }
}
export class InvalidRequestError extends PayframeError {}
export class AuthenticationError extends PayframeError {}
export class PermissionError extends PayframeError {}
export class IdempotencyError extends PayframeError {}
export class RateLimitError extends PayframeError {}
export class APIError extends PayframeError {}

const ERROR_CLASSES: Record<ErrorType, typeof PayframeError> = {
  card_error: CardError,
  invalid_request_error: InvalidRequestError,
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  idempotency_error: IdempotencyError,
  rate_limit_error: RateLimitError,
  api_error: APIError,
};

/** The error for a failed answer: by the body's `type`, or APIError when the body is not the error shape. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): PayframeError {
  const shaped = isErrorBody(body) ? body : undefined;
  const ErrorClass = shaped ? ERROR_CLASSES[shaped.type] : APIError;
  return new ErrorClass(status, shaped, headers);
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null) return false;
  const { type, error } = body as { type?: unknown; error?: { code?: unknown; message?: unknown } };
  return typeof type === 'string' && type in ERROR_CLASSES && typeof error?.code === 'string' && typeof error.message === 'string';
}

/** The API could not be reached, or did not answer within the timeout, after every retry. */
export class ConnectionError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'ConnectionError';
  }
}

/** A webhook whose signature, timestamp or headers do not check out. */
export class SignatureVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignatureVerificationError';
  }
}
