import {
  type ChangePasswordBody,
  type DashboardUser,
  type DashboardUserList,
  type InvitedUser,
  type InviteUserBody,
  PayframeError,
  type RemovedUser,
} from '@payframe/contract';
import { epochSeconds } from '../domain/clock.ts';
import { generatePassword, hashPassword, verifyPassword } from '../security/passwords.ts';
import { deleteOtherSessions, deleteUserOfAccount, findUserById, insertUser, setPassword, usersOfAccount } from '../storage/repositories/dashboard-users.ts';
import type { DashboardUsersTable } from '../storage/schema.ts';
import type { Db, ServiceDeps, Store } from './context.ts';
import type { ActiveSession } from './dashboard-sessions.ts';
import { throttledCheck } from './login-throttle.ts';

function userView(row: Pick<DashboardUsersTable, 'id' | 'email' | 'role' | 'created_at'>): DashboardUser {
  return { id: row.id, email: row.email, role: row.role, created: epochSeconds(row.created_at) };
}

export async function listTeam(db: Db, accountId: string): Promise<DashboardUserList> {
  return { type: 'list', data: (await usersOfAccount(db, accountId)).map(userView) };
}

/** A new user of the account with a generated password, shown in this answer only. An e-mail is one user in the whole server. */
export async function inviteUser(store: Store, deps: ServiceDeps, accountId: string, body: InviteUserBody): Promise<InvitedUser> {
  const password = generatePassword();
  const hashed = await hashPassword(password);
  const row: DashboardUsersTable = {
    id: deps.ids.uuid(),
    account_id: accountId,
    email: body.email,
    role: body.role,
    password_hash: hashed.hash,
    password_salt: hashed.salt,
    password_params: hashed.params,
    created_at: deps.clock.now(),
  };
  if (!(await store.transaction((tx) => insertUser(tx, row)))) {
    throw new PayframeError('PARAMETER_INVALID', 'Invalid parameter email: a user with that e-mail exists already.', { parameter: 'email' });
  }
  return { ...userView(row), password };
}

/** Removes a user of the account and ends their sessions; an admin cannot remove themselves (the account would keep no one to do it). */
export async function removeUser(store: Store, session: ActiveSession, id: string): Promise<RemovedUser> {
  if (id === session.userId) throw new PayframeError('PARAMETER_INVALID', 'Invalid parameter id: you cannot remove yourself.', { parameter: 'id' });
  if (!(await store.transaction((tx) => deleteUserOfAccount(tx, session.accountId, id)))) {
    throw new PayframeError('RESOURCE_MISSING', 'No such user.', { parameter: 'id' });
  }
  return { id, deleted: true };
}

/**
 * The session's user sets a new password after proving the current one (throttled like sign-in, per
 * user); their other sessions end, this one goes on.
 */
export async function changeOwnPassword(store: Store, deps: ServiceDeps, session: ActiveSession, body: ChangePasswordBody): Promise<{ ok: true }> {
  const user = await throttledCheck(store, deps, [`password:${session.userId}`], async () => {
    const found = await store.read((db) => findUserById(db, session.userId));
    if (!found) return null;
    const valid = await verifyPassword(body.current_password, { hash: found.password_hash, salt: found.password_salt, params: found.password_params });
    return valid ? found : null;
  });
  if (!user)
    throw new PayframeError('PARAMETER_INVALID', 'Invalid parameter current_password: that is not your current password.', { parameter: 'current_password' });
  const hashed = await hashPassword(body.new_password);
  await store.transaction(async (tx) => {
    await setPassword(tx, user.id, { password_hash: hashed.hash, password_salt: hashed.salt, password_params: hashed.params });
    await deleteOtherSessions(tx, user.id, session.id);
  });
  return { ok: true };
}
