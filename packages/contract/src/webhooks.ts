import { z } from 'zod';
import { ModeSchema } from './card.ts';
import { ReturnUrlSchema } from './charges.ts';
import { EVENT_NAMES, EventNameSchema } from './events.ts';
import { prefixedId, text } from './fields.ts';
import { listSchema } from './lists.ts';

/** The event names an endpoint takes: at least one; repeated names count once. */
const EndpointEventsSchema = z
  .array(EventNameSchema, { error: 'must be a list of event names' })
  .min(1, { error: 'must name at least one event' })
  .max(EVENT_NAMES.length * 4, { error: 'has too many entries' })
  .transform((names) => [...new Set(names)]);

/** null, as an endpoint without one shows it, means none. */
const EndpointDescriptionSchema = text(1000, 0).nullable();

const BOOLEAN_ERROR = 'must be true or false';

/** `true` or `false`: a JSON boolean, or the word in a form field. */
export const BooleanFieldSchema = z
  .union([z.boolean({ error: BOOLEAN_ERROR }), z.enum(['true', 'false'], { error: BOOLEAN_ERROR })], { error: BOOLEAN_ERROR })
  .transform((value) => value === true || value === 'true');

export const CreateWebhookEndpointBodySchema = z.strictObject({
  /** Absolute http(s), no credentials; the mode's own rules (https, public address in live mode) are the server's. */
  url: ReturnUrlSchema,
  /** Omitted: every event. */
  events: EndpointEventsSchema.default(() => [...EVENT_NAMES]),
  description: EndpointDescriptionSchema.optional(),
});
export type CreateWebhookEndpointBody = z.infer<typeof CreateWebhookEndpointBodySchema>;

/**
 * `POST /v2/webhook_endpoints/:id`: what is sent changes, the rest stays. A disabled endpoint
 * receives no new deliveries (those already queued go on) until it is enabled again.
 */
export const UpdateWebhookEndpointBodySchema = z.strictObject({
  url: ReturnUrlSchema.optional(),
  events: EndpointEventsSchema.optional(),
  description: EndpointDescriptionSchema.optional(),
  disabled: BooleanFieldSchema.optional(),
});
export type UpdateWebhookEndpointBody = z.infer<typeof UpdateWebhookEndpointBodySchema>;

export const WebhookEndpointSchema = z
  .object({
    type: z.literal('webhook_endpoint'),
    id: prefixedId('we'),
    url: z.string(),
    events: z.array(EventNameSchema),
    description: z.string().nullable(),
    /** A disabled endpoint receives no new deliveries. */
    disabled: z.boolean(),
    created: z.number().int(),
    mode: ModeSchema,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** `whsec_` and the base64 of 32 random bytes. */
export const WebhookSecretSchema = z.string().regex(/^whsec_[A-Za-z0-9+/]{43}=$/);

/** Only the create answer carries the signing secret: it is shown once. */
export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({ secret: WebhookSecretSchema }).meta({
  id: 'CreatedWebhookEndpoint',
});
export type CreatedWebhookEndpoint = z.infer<typeof CreatedWebhookEndpointSchema>;

export const DeletedWebhookEndpointSchema = z
  .object({ type: z.literal('webhook_endpoint'), id: prefixedId('we'), deleted: z.literal(true) })
  .meta({ id: 'DeletedWebhookEndpoint' });
export type DeletedWebhookEndpoint = z.infer<typeof DeletedWebhookEndpointSchema>;

export const WebhookEndpointListSchema = listSchema(WebhookEndpointSchema).meta({ id: 'WebhookEndpointList' });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointListSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const WebhookDeliverySchema = z
  .object({
    type: z.literal('webhook_delivery'),
    endpoint: prefixedId('we'),
    event: prefixedId('evt'),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    /** Every attempt made so far. */
    attempts: z.number().int().nonnegative(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    /** Epoch seconds of the next attempt; null once the delivery has ended. */
    next_attempt: z.number().int().nullable(),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = listSchema(WebhookDeliverySchema).meta({ id: 'WebhookDeliveryList' });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;

export const ResendEventBodySchema = z.strictObject({
  /** Omitted: every endpoint of the account and mode that takes the event's name. */
  endpoint: text(255).optional(),
});
export type ResendEventBody = z.infer<typeof ResendEventBodySchema>;
