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
    if (code.startsWith('08') || code.startsWith('57P') || code === '53300' || code === '57014') return true;
  }
  // node-postgres reports these without a code.
  return typeof message === 'string' && /timeout exceeded when trying to connect|Connection terminated|Query read timeout/i.test(message);
}
