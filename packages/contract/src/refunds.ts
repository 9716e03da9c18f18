import { z } from 'zod';
import { ModeSchema } from './card.ts';
import { MetadataInputSchema, MetadataSchema } from './metadata.ts';
import { AmountSchema } from './money.ts';

export const CreateRefundBodySchema = z.strictObject({
  /** Omitted: the whole remaining balance. */
  amount: AmountSchema.optional(),
  metadata: MetadataInputSchema.optional(),
});
export type CreateRefundBody = z.infer<typeof CreateRefundBodySchema>;

export const RefundSchema = z
  .object({
    type: z.literal('refund'),
    id: z.uuid(),
    charge: z.string().regex(/^C\d{16,}$/),
    currency: z.string(),
    amount: z.number().int(),
    fee_refunded: z.number().int(),
    status: z.literal('REFUNDED'),
    created: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    mode: ModeSchema,
    metadata: MetadataSchema,
  })
  .meta({ id: 'Refund' });
export type Refund = z.infer<typeof RefundSchema>;
