import { ErrorBodySchema, type ErrorCode } from '@payframe/contract';

/** The server's error codes, and the two failures only a browser sees. */
export type DashboardErrorCode = ErrorCode | 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE';

export class DashboardApiError extends Error {
  readonly code: DashboardErrorCode;
  /** The HTTP status; 0 when the server was never reached. */
  readonly status: number;
  readonly parameter: string | undefined;

  constructor(code: DashboardErrorCode, message: string, status: number, parameter?: string) {
    super(message);
    this.name = 'DashboardApiError';
    this.code = code;
    this.status = status;
    this.parameter = parameter;
  }
}

/** The API's error shape as a `DashboardApiError`; anything else says the status it came with. */
export function errorFromResponse(status: number, json: unknown): DashboardApiError {
  const body = ErrorBodySchema.safeParse(json);
  if (body.success) return new DashboardApiError(body.data.error.code, body.data.error.message, status, body.data.error.parameter);
  return new DashboardApiError('UNEXPECTED_RESPONSE', `The server answered ${status} without an explanation.`, status);
}

export function asApiError(error: unknown): DashboardApiError {
  if (error instanceof DashboardApiError) return error;
  return new DashboardApiError('UNEXPECTED_RESPONSE', error instanceof Error ? error.message : String(error), 0);
}
