import { PayframeError } from '@payframe/contract';

/** Socket-level failures reaching the database server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * Whether an error means the database cannot be reached or used right now (an outage to retry
 * after), as opposed to a fault in our own code. Covers both stores.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    // SQLite: another process held the lock past the busy timeout.
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return true;
    if (NETWORK_CODES.has(code)) return true;
    // PostgreSQL: connection exceptions (08), operator intervention such as shutdown (57P),
    // too many connections (53300), and statement timeouts (57014).
    // A read-only transaction (25006): the host is a standby, or a primary demoted by a failover,
    // which the next connection leaves for the new primary (postgres-hosts.ts).
    if (code.startsWith('08') || code.startsWith('57P') || code === '53300' || code === '57014' || code === '25006') return true;
    // A database an operator closed to connections (ALTER DATABASE … ALLOW_CONNECTIONS false): the
    // same state class holds faults of ours, so the message decides.
    if (code === '55000' && typeof message === 'string' && /not currently accepting connections/i.test(message)) return true;
  }
  // node-postgres reports these without a code.
  return typeof message === 'string' && /timeout exceeded when trying to connect|Connection terminated|Query read timeout/i.test(message);
}

/**
 * The one place an outage becomes the API's 503: every store call passes its failure through here,
 * so the layers above see either a PayframeError or a fault in our own code. The driver's error
 * stays as the `cause`, for the log.
 */
export function asServiceUnavailable(error: unknown): unknown {
  if (!isStoreUnavailable(error)) return error;
  const unavailable = new PayframeError('SERVICE_UNAVAILABLE', 'The database is unavailable right now; retry shortly.', {
    headers: { 'retry-after': '1' },
  });
  unavailable.cause = error;
  return unavailable;
}

/** Whether a store call failed with an outage: what every Store method throws for one (see asServiceUnavailable). */
export function isServiceUnavailable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SERVICE_UNAVAILABLE';
}

/** Runs a store call, turning an outage into SERVICE_UNAVAILABLE. */
export async function orUnavailable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asServiceUnavailable(error);
  }
}
