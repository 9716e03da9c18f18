import type { Kysely } from 'kysely';

/**
 * Idempotency records are now matched by a keyed fingerprint and hold their response sealed
 * (docs/security.md). Records written before hold a plain hash of the request, from which a token
 * request's card number and CVC can be searched out, and the response in clear: they go. A retry
 * of a request made before the upgrade runs again instead of replaying; for a token that makes a
 * second token, never a second charge, since a charge consumes its token.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.deleteFrom('idempotency_keys' as never).execute();
}
