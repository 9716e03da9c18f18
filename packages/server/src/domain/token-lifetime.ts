/** A token can be charged for this long after it was made; then its card data is erased. */
export const TOKEN_LIFETIME_MS = 15 * 60 * 1000;

/** Whether a token made at `createdAt` is past its lifetime at `now` (both on the caller's clock). */
export function isTokenExpired(createdAt: number, now: number): boolean {
  return now - createdAt > TOKEN_LIFETIME_MS;
}

