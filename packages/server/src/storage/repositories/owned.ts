import type { Mode } from '@payframe/contract';

/** Whose rows a query may see: other tenants' rows do not exist for it. */
export type Owner = { accountId: string; mode: Mode };

/** The row with this id, if it belongs to the owner's account and mode. */
export function ownedBy(owner: Owner, id: string) {
  return { id, account_id: owner.accountId, mode: owner.mode };
}
