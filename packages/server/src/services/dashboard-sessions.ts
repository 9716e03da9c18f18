import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type DashboardLoginBody, type DashboardSession, PayframeError } from '@payframe/contract';
import type { Clock } from '../domain/clock.ts';
import { accountNow } from '../domain/clock.ts';
import { verifyAgainstNothing, verifyPassword } from '../security/passwords.ts';
import { deleteEndedSessions, deleteSession, findSession, insertSession, type SessionRow, touchSession } from '../storage/repositories/dashboard-sessions.ts';
import { findUserByEmail } from '../storage/repositories/dashboard-users.ts';
import type { Caller, ServiceDeps, Store } from './context.ts';
import { normalizeEmail } from './dashboard-users.ts';
import { throttledCheck } from './login-throttle.ts';

/** How long a session lives: `idleMs` without a request, `maxMs` at most (docs/dashboard.md). */
export type SessionLifetime = { idleMs: number; maxMs: number };

/** A live session, as the dashboard's routes use it. */
export type ActiveSession = {
  id: string;
  csrfToken: string;
  role: DashboardSession['user']['role'];
  view: DashboardSession;
  accountId: string;
  userId: string;
  testClockOffset: number;
};

/** The cookie carries the token; the database only its SHA-256, so a copy of the database opens no session. */
function sessionId(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function activeSession(row: SessionRow): ActiveSession {
  return {
    id: row.id,
    csrfToken: row.csrfToken,
    role: row.role,
    accountId: row.accountId,
    userId: row.userId,
    testClockOffset: row.testClockOffset,
    view: {
      user: { email: row.email, role: row.role },
      account: { id: row.accountId, name: row.displayName ?? row.accountName },
      csrfToken: row.csrfToken,
    },
  };
}

/**
 * Signs in: throttled per e-mail and per address first (the right password included), then one
 * scrypt whether or not the e-mail is known, so both failures look and last alike. The attempt is
 * counted before scrypt runs (login-throttle.ts).
 */
export async function login(
  store: Store,
  deps: ServiceDeps,
  lifetime: SessionLifetime,
  input: DashboardLoginBody & { address: string },
): Promise<{ token: string; session: ActiveSession }> {
  const email = normalizeEmail(input.email);
  const user = await throttledCheck(store, deps, [`email:${email}`, `ip:${input.address}`], async () => {
    const found = await store.read((db) => findUserByEmail(db, email));
    const valid = found
      ? await verifyPassword(input.password, { hash: found.password_hash, salt: found.password_salt, params: found.password_params })
      : await verifyAgainstNothing(input.password);
    return found && valid ? found : null;
  });
  if (!user) throw new PayframeError('INVALID_CREDENTIALS');
  const token = randomBytes(32).toString('base64url');
  const id = sessionId(token);
  const now = deps.clock.now();
  const row = await store.transaction(async (tx) => {
    await deleteEndedSessions(tx, user.id, now - lifetime.idleMs, now - lifetime.maxMs);
    await insertSession(tx, { id, user_id: user.id, csrf_token: randomBytes(32).toString('base64url'), created_at: now, last_seen_at: now });
    return findSession(tx, id);
  });
  if (!row) throw new PayframeError('INTERNAL_ERROR');
  return { token, session: activeSession(row) };
}

/**
 * The live session of this cookie token, or null. An ended session is deleted on sight. Activity is
 * written at most every tenth of the idle window (and at most once a minute): most requests only read.
 */
export async function resumeSession(store: Store, clock: Clock, lifetime: SessionLifetime, token: string): Promise<ActiveSession | null> {
  const id = sessionId(token);
  const row = await store.read((db) => findSession(db, id));
  if (!row) return null;
  const now = clock.now();
  if (now - row.lastSeenAt >= lifetime.idleMs || now - row.createdAt >= lifetime.maxMs) {
    await store.read((db) => deleteSession(db, id));
    return null;
  }
  const staleBefore = now - Math.min(60_000, Math.floor(lifetime.idleMs / 10));
  if (row.lastSeenAt < staleBefore) await store.read((db) => touchSession(db, id, now, staleBefore));
  return activeSession(row);
}

export async function endSession(store: Store, session: ActiveSession): Promise<void> {
  await store.read((db) => deleteSession(db, session.id));
}

export function csrfTokenMatches(session: ActiveSession, sent: string | undefined): boolean {
  if (sent === undefined) return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(sent);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The session's account in a mode, on that account's test clock in test mode. */
export function sessionCaller(session: ActiveSession, mode: Caller['mode'], clock: Clock): Caller {
  return { accountId: session.accountId, mode, now: accountNow(clock.now(), mode, session.testClockOffset) };
}
