import { z } from 'zod';
import { ModeSchema } from './card.ts';
import { ChargeSchema } from './charges.ts';
import { prefixedId, text } from './fields.ts';
import { CreatedRangeSchema, listPageShape, listSchema, oneCursor } from './lists.ts';
import { RefundSchema } from './refunds.ts';

/**
 * Every change of a charge that becomes an event. `charge.authentication_unavailable`: 3-D Secure
 * settled as unavailable (`transStatus` `U`), capture allowed. `charge.updated`: its metadata changed.
 */
export const EVENT_NAMES = [
  'charge.created',
  'charge.authentication_succeeded',
  'charge.authentication_failed',
  'charge.authentication_unavailable',
  'charge.captured',
  'charge.canceled',
  'charge.refunded',
  'charge.expired',
  'charge.updated',
] as const;
export const EventNameSchema = z.enum(EVENT_NAMES, { error: 'must be an event name' });
export type EventName = z.infer<typeof EventNameSchema>;

export const EventSchema = z
  .object({
    type: z.literal('event'),
    id: prefixedId('evt'),
    name: EventNameSchema,
    /** On the charge's clock: the account's test clock in test mode. */
    created: z.number().int(),
    mode: ModeSchema,
    data: z.object({
      /** The charge after the change. */
      object: ChargeSchema,
      /** Only on `charge.refunded`: the refund that made it. */
      refund: RefundSchema.optional(),
    }),
  })
  .meta({ id: 'Event' });
export type Event = z.infer<typeof EventSchema>;

/** The event list's parameters, for lists that add their own (the dashboard's `mode`). */
export const listEventsShape = {
  ...listPageShape,
  name: EventNameSchema.optional(),
  charge: text(255).optional(),
  created: CreatedRangeSchema.optional(),
};

export const ListEventsQuerySchema = oneCursor(z.strictObject(listEventsShape));
export type ListEventsQuery = z.infer<typeof ListEventsQuerySchema>;

export const EventListSchema = listSchema(EventSchema).meta({ id: 'EventList' });
export type EventList = z.infer<typeof EventListSchema>;
