import type { z } from 'zod';
import type { CaptureChargeBodySchema, CreateChargeBodySchema, UpdateChargeBodySchema } from './charges.ts';
import type { ListEventsQuerySchema } from './events.ts';
import type { ListChargesQuerySchema, ListPageQuerySchema, ListRefundsQuerySchema } from './lists.ts';
import type { CreateRefundBodySchema } from './refunds.ts';
import type { AdvanceClockBodySchema, AuthenticateBodySchema } from './test-helpers.ts';
import type { CreateTokenBodySchema } from './tokens.ts';
import type { CreateWebhookEndpointBodySchema, ResendEventBodySchema, UpdateWebhookEndpointBodySchema } from './webhooks.ts';

// What a client may send: the input side of each schema (digits as strings or numbers, defaults
// optional), for the SDK's method signatures. The parsed side is the `…Body`/`…Query` type.
export type CreateTokenParams = z.input<typeof CreateTokenBodySchema>;
export type CreateChargeParams = z.input<typeof CreateChargeBodySchema>;
export type CaptureChargeParams = z.input<typeof CaptureChargeBodySchema>;
export type UpdateChargeParams = z.input<typeof UpdateChargeBodySchema>;
export type CreateRefundParams = z.input<typeof CreateRefundBodySchema>;
export type AdvanceClockParams = z.input<typeof AdvanceClockBodySchema>;
export type AuthenticateParams = z.input<typeof AuthenticateBodySchema>;
export type ListPageParams = z.input<typeof ListPageQuerySchema>;
export type ListChargesParams = z.input<typeof ListChargesQuerySchema>;
export type ListRefundsParams = z.input<typeof ListRefundsQuerySchema>;
export type ListEventsParams = z.input<typeof ListEventsQuerySchema>;
export type CreateWebhookEndpointParams = z.input<typeof CreateWebhookEndpointBodySchema>;
export type UpdateWebhookEndpointParams = z.input<typeof UpdateWebhookEndpointBodySchema>;
export type ResendEventParams = z.input<typeof ResendEventBodySchema>;
