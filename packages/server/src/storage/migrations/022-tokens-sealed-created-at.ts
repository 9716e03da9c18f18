import { type Kysely, sql } from 'kysely';

/**
 * The sweeper erases the sealed card of every token left unused past its lifetime
 * (erase-expired-tokens). Its index held every unused token, erased or not: a token never charged
 * (an abandoned checkout, a card tester's) stayed in it for good, and every sweep read them all
 * again, reading the account's test clock for each. The index now holds only the tokens whose card
 * is still sealed, a lifetime's worth at most, so a sweep reads those alone however many tokens
 * were ever abandoned. A token leaves it when it is charged or its card is erased.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('tokens_unused_created_at').execute();
  await sql`create index tokens_sealed_created_at on tokens (created_at) where card_secret is not null`.execute(db);
}
