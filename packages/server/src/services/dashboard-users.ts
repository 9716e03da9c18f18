import { DASHBOARD_MIN_PASSWORD_LENGTH, type DashboardRole } from '@payframe/contract';
import type { IdGenerator } from '../ids.ts';
import { generatePassword, hashPassword, verifyPassword } from '../security/passwords.ts';
import { ensureAccount } from '../storage/repositories/api-keys.ts';
import { deleteUser, findUserByEmail, insertUser, listUsers, type UserListing } from '../storage/repositories/dashboard-users.ts';
import type { Store } from './context.ts';

export type NewUser = { account: string; email: string; role: DashboardRole; password?: string | undefined };
export type CreatedUser = { account: string; email: string; role: DashboardRole; password: string; generated: boolean };

/** E-mails are compared lower-cased: `Ada@Example.com` and `ada@example.com` are one user. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Creates the account on first use (as `keys create` does), then the user; an e-mail already taken
 * is refused. `hash` is scrypt's (passwords.ts); the test suite passes one that hashes each of its
 * few fixed passwords once, where it makes over a hundred users.
 */
export async function createUser(store: Store, ids: IdGenerator, input: NewUser, now: number, hash = hashPassword): Promise<CreatedUser> {
  const email = normalizeEmail(input.email);
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) throw new Error(`not an e-mail address: ${input.email}`);
  const generated = input.password === undefined;
  const password = input.password ?? generatePassword();
  if (password.length < DASHBOARD_MIN_PASSWORD_LENGTH) throw new Error(`the password must be at least ${DASHBOARD_MIN_PASSWORD_LENGTH} characters`);
  const hashed = await hash(password);
  const inserted = await store.transaction(async (tx) => {
    const accountId = await ensureAccount(tx, { id: ids.uuid(), name: input.account, createdAt: now });
    return insertUser(tx, {
      id: ids.uuid(),
      account_id: accountId,
      email,
      role: input.role,
      password_hash: hashed.hash,
      password_salt: hashed.salt,
      password_params: hashed.params,
      created_at: now,
    });
  });
  if (!inserted) throw new Error(`a user with the e-mail ${email} exists already`);
  return { account: input.account, email, role: input.role, password, generated };
}

export function listDashboardUsers(store: Store, account?: string): Promise<UserListing[]> {
  return store.read((db) => listUsers(db, account));
}

/** Removes the user and ends their sessions at once. */
export function removeUser(store: Store, email: string): Promise<boolean> {
  return store.transaction((tx) => deleteUser(tx, normalizeEmail(email)));
}

/** Whether a user with this e-mail exists and signs in with this password. */
export async function signsInWith(store: Store, email: string, password: string): Promise<boolean> {
  const user = await store.read((db) => findUserByEmail(db, normalizeEmail(email)));
  return user !== undefined && verifyPassword(password, { hash: user.password_hash, salt: user.password_salt, params: user.password_params });
}
