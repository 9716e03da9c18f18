import type { Db } from '../db.ts';
import type { DashboardUsersTable } from '../schema.ts';

export async function insertUser(db: Db, user: DashboardUsersTable): Promise<boolean> {
  const result = await db
    .insertInto('dashboard_users')
    .values(user)
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** The user with this (lower-cased) e-mail. */
export function findUserByEmail(db: Db, email: string): Promise<DashboardUsersTable | undefined> {
  return db.selectFrom('dashboard_users').selectAll().where('email', '=', email).executeTakeFirst();
}

export type UserListing = Pick<DashboardUsersTable, 'id' | 'email' | 'role' | 'created_at'> & { account: string };

export function listUsers(db: Db, account?: string): Promise<UserListing[]> {
  let query = db
    .selectFrom('dashboard_users')
    .innerJoin('accounts', 'accounts.id', 'dashboard_users.account_id')
    .select(['dashboard_users.id', 'dashboard_users.email', 'dashboard_users.role', 'dashboard_users.created_at', 'accounts.name as account'])
    .orderBy('dashboard_users.created_at')
    .orderBy('dashboard_users.email');
  if (account) query = query.where('accounts.name', '=', account);
  return query.execute();
}

/** Deletes the user and every session of theirs; answers whether the user existed. */
export async function deleteUser(db: Db, email: string): Promise<boolean> {
  const user = await findUserByEmail(db, email);
  if (!user) return false;
  await db.deleteFrom('dashboard_sessions').where('user_id', '=', user.id).execute();
  await db.deleteFrom('dashboard_users').where('id', '=', user.id).execute();
  return true;
}

/** The account's users, oldest first. */
export function usersOfAccount(db: Db, accountId: string): Promise<Array<Pick<DashboardUsersTable, 'id' | 'email' | 'role' | 'created_at'>>> {
  return db
    .selectFrom('dashboard_users')
    .select(['id', 'email', 'role', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('email')
    .execute();
}

export function findUserById(db: Db, id: string): Promise<DashboardUsersTable | undefined> {
  return db.selectFrom('dashboard_users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Deletes the account's user with this id and every session of theirs; answers whether there was one. */
export async function deleteUserOfAccount(db: Db, accountId: string, id: string): Promise<boolean> {
  const user = await db.selectFrom('dashboard_users').select('id').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  if (!user) return false;
  await db.deleteFrom('dashboard_sessions').where('user_id', '=', id).execute();
  await db.deleteFrom('dashboard_users').where('id', '=', id).execute();
  return true;
}

export async function setPassword(
  db: Db,
  id: string,
  password: Pick<DashboardUsersTable, 'password_hash' | 'password_salt' | 'password_params'>,
): Promise<void> {
  await db.updateTable('dashboard_users').set(password).where('id', '=', id).execute();
}

/** Ends every session of the user but `keep`. */
export async function deleteOtherSessions(db: Db, userId: string, keep: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('user_id', '=', userId).where('id', '!=', keep).execute();
}
