import { type DashboardAccount, PayframeError } from '@payframe/contract';
import { findAccount, setDisplayName } from '../storage/repositories/accounts.ts';
import type { Db } from './context.ts';

/** The account as the dashboard shows it: its name is the one shoppers see on the 3-D Secure page. */
export async function accountView(db: Db, accountId: string): Promise<DashboardAccount> {
  const account = await findAccount(db, accountId);
  if (!account) throw new PayframeError('RESOURCE_MISSING', 'No such account.');
  return { id: account.id, name: account.displayName ?? account.name };
}

export async function renameAccount(db: Db, accountId: string, name: string): Promise<DashboardAccount> {
  await setDisplayName(db, accountId, name);
  return accountView(db, accountId);
}
