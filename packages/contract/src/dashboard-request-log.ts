import { z } from 'zod';
import { ModeSchema } from './card.ts';
import { text } from './fields.ts';
import { listPageShape, listSchema, oneCursor } from './lists.ts';

/**
 * The request log (`GET /dashboard/api/request_log`, `GET /dashboard/api/request_log/:id`): every
 * /v2 request of the account and mode for 7 days, with no card number or CVC ever stored.
 */
export const REQUEST_LOG_DAYS = 7;
export const REQUEST_LOG_STATUS_CLASSES = ['2xx', '4xx', '5xx'] as const;
export const RequestLogStatusClassSchema = z.enum(REQUEST_LOG_STATUS_CLASSES, { error: 'must be 2xx, 4xx or 5xx' });
export type RequestLogStatusClass = z.infer<typeof RequestLogStatusClassSchema>;

/** `path`: the entries whose path starts with it (`/v2/charges` finds `/v2/charges/C…/capture` too). */
export const DashboardRequestLogQuerySchema = oneCursor(
  z.object({ mode: ModeSchema, ...listPageShape, status: RequestLogStatusClassSchema.optional(), path: text(255).optional() }),
);
export type DashboardRequestLogQuery = z.infer<typeof DashboardRequestLogQuerySchema>;

export const RequestLogEntrySchema = z.object({
  type: z.literal('request_log_entry'),
  /** The request's `Request-Id`. */
  id: z.string(),
  /** Epoch milliseconds (real time) when it was received: the time its id carries. */
  created: z.number().int(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  duration_ms: z.number().int(),
  /** The key's prefix and last 4 (`sk_test_…AbCd`), never the key; null when the key is gone. */
  key_hint: z.string().nullable(),
  idempotency_key: z.string().nullable(),
});
export type RequestLogEntry = z.infer<typeof RequestLogEntrySchema>;

export const RequestLogListSchema = listSchema(RequestLogEntrySchema);
export type RequestLogList = z.infer<typeof RequestLogListSchema>;

/** One entry with what was sent (query and body, card data redacted) and what was answered. */
export const RequestLogDetailSchema = RequestLogEntrySchema.extend({
  request: z.object({ query: z.unknown(), body: z.unknown() }),
  /** The response body: its JSON, or its text when it was none. */
  response: z.unknown(),
});
export type RequestLogDetail = z.infer<typeof RequestLogDetailSchema>;
