import type { DashboardRole } from '@payframe/contract';
import type { Db } from '../db.ts';
import type { DashboardSessionsTable } from '../schema.ts';

export async function insertSession(db: Db, session: DashboardSessionsTable): Promise<void> {
  await db.insertInto('dashboard_sessions').values(session).execute();
}

export type SessionRow = {
  id: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  userId: string;
  email: string;
  role: DashboardRole;
  accountId: string;
  accountName: string;
  displayName: string | null;
  testClockOffset: number;
};

/** The session with its user and account, whatever its age (the service judges expiry). */
export async function findSession(db: Db, id: string): Promise<SessionRow | undefined> {
  const row = await db
    .selectFrom('dashboard_sessions')
    .innerJoin('dashboard_users', 'dashboard_users.id', 'dashboard_sessions.user_id')
    .innerJoin('accounts', 'accounts.id', 'dashboard_users.account_id')
    .select([
      'dashboard_sessions.id',
      'dashboard_sessions.csrf_token',
      'dashboard_sessions.created_at',
      'dashboard_sessions.last_seen_at',
      'dashboard_users.id as user_id',
      'dashboard_users.email',
      'dashboard_users.role',
      'accounts.id as account_id',
      'accounts.name as account_name',
      'accounts.display_name',
      'accounts.test_clock_offset',
    ])
    .where('dashboard_sessions.id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      csrfToken: row.csrf_token,
      createdAt: Number(row.created_at),
      lastSeenAt: Number(row.last_seen_at),
      userId: row.user_id,
      email: row.email,
      role: row.role,
      accountId: row.account_id,
      accountName: row.account_name,
      displayName: row.display_name,
      testClockOffset: Number(row.test_clock_offset),
    }
  );
}

/** Records activity; a no-op unless the stored time is older than `staleBefore`, so most requests write nothing. */
export async function touchSession(db: Db, id: string, now: number, staleBefore: number): Promise<void> {
  await db.updateTable('dashboard_sessions').set({ last_seen_at: now }).where('id', '=', id).where('last_seen_at', '<', staleBefore).execute();
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom('dashboard_sessions').where('id', '=', id).execute();
}

/** A user's sessions that can no longer be used: idle since `idleBefore` or created before `createdBefore`. */
export async function deleteEndedSessions(db: Db, userId: string, idleBefore: number, createdBefore: number): Promise<void> {
  await db
    .deleteFrom('dashboard_sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_seen_at', '<', idleBefore), eb('created_at', '<', createdBefore)]))
    .execute();
}
