/** A token can be charged for this long after it was made; then its card data is erased. */
export const TOKEN_LIFETIME_MS = 15 * 60 * 1000;

/** Whether a token made at `createdAt` is past its lifetime at `now` (both on the caller's clock). */
export function isTokenExpired(createdAt: number, now: number): boolean {
  return now - createdAt > TOKEN_LIFETIME_MS;
}

/** The part of a token that decides whether it can still be charged. */
export type TokenState = { createdAt: number; used: boolean; sealed: boolean };

/** The lifetime's view of a stored token row. */
export function tokenState(row: { created_at: number; used_at: number | null; card_secret: string | null }): TokenState {
  return { createdAt: row.created_at, used: row.used_at !== null, sealed: row.card_secret !== null };
}

/**
 * Why a token can no longer be charged, or null while it can. A used token is used whatever its
 * age. An unused token has ended when its lifetime has passed, or when its sealed card is gone:
 * only expiry erases an unused token's card (the sweeper after the deadline, or the test helper
 * that ends one token's lifetime now without moving any clock), so no date need be stored for it.
 */
export function tokenEnded(token: TokenState, now: number): 'TOKEN_ALREADY_USED' | 'TOKEN_EXPIRED' | null {
  if (token.used) return 'TOKEN_ALREADY_USED';
  if (!token.sealed || isTokenExpired(token.createdAt, now)) return 'TOKEN_EXPIRED';
  return null;
}
