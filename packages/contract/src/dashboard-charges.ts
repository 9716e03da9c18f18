import { z } from 'zod';
import { ChargeSchema } from './charges.ts';
import { listSchema } from './lists.ts';

/**
 * A charge as the dashboard's charge list shows it: the API's charge and the shopper's e-mail,
 * which the public charge does not carry (it stays with the token it was given to).
 */
export const DashboardChargeSchema = ChargeSchema.extend({ email: z.string() });
export type DashboardCharge = z.infer<typeof DashboardChargeSchema>;

export const DashboardChargeListSchema = listSchema(DashboardChargeSchema);
export type DashboardChargeList = z.infer<typeof DashboardChargeListSchema>;

/**
 * The columns of the charges CSV export, in order. Money columns are in the currency's major units
 * (`12.50`, JPY `500`, KWD `1.250`), `created` is ISO 8601 UTC, `fees` is empty until captured.
 */
export const CHARGE_EXPORT_COLUMNS = [
  'id',
  'created',
  'amount',
  'currency',
  'status',
  'amount_captured',
  'amount_refunded',
  'fees',
  'description',
  'txn_reference',
  'email',
  'brand',
  'last4',
] as const;
