import type { Db } from '../db.ts';
import type { TokensTable } from '../schema.ts';
import { type Owner, ownedBy } from './owned.ts';

export async function insertToken(db: Db, token: TokensTable): Promise<void> {
  await db.insertInto('tokens').values(token).execute();
}

export function findToken(db: Db, owner: Owner, id: string): Promise<TokensTable | undefined> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where((eb) => eb.and(ownedBy(owner, id)))
    .executeTakeFirst();
}

/** The token a stored charge was made from: it always exists. */
export function tokenOfCharge(db: Db, tokenId: string): Promise<TokensTable> {
  return db.selectFrom('tokens').selectAll().where('id', '=', tokenId).executeTakeFirstOrThrow();
}

/**
 * Marks the token used and erases its sealed card. The conditional update is the race: of
 * concurrent attempts on one token exactly one changes the row, and only that one gets true.
 */
export async function consumeToken(db: Db, id: string, now: number): Promise<boolean> {
  const consumed = await db
    .updateTable('tokens')
    .set({ used_at: now, card_secret: null })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return consumed.numUpdatedRows === 1n;
}

/** The tokens of a page of charges, in one query. */
export async function tokensByIds(db: Db, ids: string[]): Promise<Map<string, TokensTable>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('tokens').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}
