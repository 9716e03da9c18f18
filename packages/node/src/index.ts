export type * from '@payframe/contract';
export {
  APIError,
  AuthenticationError,
  CardError,
  ConnectionError,
  IdempotencyError,
  InvalidRequestError,
  PayframeError,
  PermissionError,
  RateLimitError,
  SignatureVerificationError,
  type UnexpectedResponseCode,
} from './errors.ts';
export type { ClientOptions, RequestOptions } from './http.ts';
export { ListPromise } from './list.ts';
export { Payframe } from './payframe.ts';
export { type ConstructEventOptions, constructEvent, type WebhookHeaders } from './webhooks.ts';
