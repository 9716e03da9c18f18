import { z } from 'zod';
import { ModeSchema } from './card.ts';
import { TRANS_STATUSES } from './charges.ts';

/**
 * The dashboard's home page (`GET /dashboard/api/overview`): figures of one mode over a period of
 * UTC days ending today, on the mode's clock (the account's test clock in test mode).
 */
export const OVERVIEW_PERIODS = ['today', '7d', '30d'] as const;
export const OverviewPeriodSchema = z.enum(OVERVIEW_PERIODS, { error: 'must be today, 7d or 30d' });
export type OverviewPeriod = z.infer<typeof OverviewPeriodSchema>;

/** How many UTC days each period spans, today included. */
export const OVERVIEW_PERIOD_DAYS: Record<OverviewPeriod, number> = { today: 1, '7d': 7, '30d': 30 };

export const DashboardOverviewQuerySchema = z.object({ mode: ModeSchema, period: OverviewPeriodSchema.default('7d') });
export type DashboardOverviewQuery = z.infer<typeof DashboardOverviewQuerySchema>;

/** Money in minor units of one currency. */
const CurrencyAmountSchema = z.object({ currency: z.string(), amount: z.number().int() });
export type CurrencyAmount = z.infer<typeof CurrencyAmountSchema>;

export const DashboardOverviewSchema = z.object({
  mode: ModeSchema,
  period: OverviewPeriodSchema,
  /** The first and last UTC day of the period, `YYYY-MM-DD`. */
  from: z.string(),
  to: z.string(),
  /** Captured money per currency (partial captures count what was captured). */
  volume: z.array(CurrencyAmountSchema),
  /** Charges created, and charges captured (the successful ones). */
  created: z.number().int(),
  succeeded: z.number().int(),
  /** Captured ÷ created over the period, null when nothing was created. */
  success_rate: z.number().nullable(),
  refunds: z.object({ count: z.number().int(), amount: z.array(CurrencyAmountSchema) }),
  /** Every day of the period, oldest first, with its captured volume per currency. */
  days: z.array(z.object({ date: z.string(), succeeded: z.number().int(), volume: z.array(CurrencyAmountSchema) })),
  /** Cards declined when charged, by decline reason (or error code when the issuer gave none), most first. */
  declines: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  /** Settled 3-D Secure outcomes by `transStatus`, each of Y, N, R and U present. */
  threeds: z.array(z.object({ status: z.enum(TRANS_STATUSES), count: z.number().int() })),
});
export type DashboardOverview = z.infer<typeof DashboardOverviewSchema>;
