import type { Db } from '../db.ts';
import type { TokensTable } from '../schema.ts';
import { allColumns, columnList, isPostgres, placeholders, portable, prepared, runStatement, runText } from '../statements.ts';
import { type Owner, ownedBy } from './owned.ts';

export const TOKEN_COLUMNS = allColumns<TokensTable>()([
  'id',
  'account_id',
  'mode',
  'created_at',
  'used_at',
  'brand',
  'funding',
  'country',
  'bank',
  'authorization',
  'bin',
  'last4',
  'exp_month',
  'exp_year',
  'fingerprint',
  'card_secret',
  'name',
  'address_line1',
  'address_line2',
  'address_city',
  'address_state',
  'address_zip',
  'address_country',
  'shopper_ip',
  'shopper_session_id',
  'shopper_email',
]);

/** What a charge's answer shows of its token. */
export const TOKEN_VIEW_COLUMNS = [
  'id',
  'created_at',
  'brand',
  'funding',
  'country',
  'bank',
  'authorization',
  'last4',
  'name',
  'address_line1',
  'address_line2',
  'address_city',
  'address_state',
  'address_zip',
  'address_country',
] as const satisfies readonly (keyof TokensTable)[];

export type TokenViewRow = Pick<TokensTable, (typeof TOKEN_VIEW_COLUMNS)[number]>;

const INSERT_TOKEN = portable(`insert into tokens (${columnList(TOKEN_COLUMNS)}) values (${placeholders(TOKEN_COLUMNS.length)})`);

export async function insertToken(db: Db, token: TokensTable): Promise<void> {
  await runStatement(
    db,
    INSERT_TOKEN,
    TOKEN_COLUMNS.map((column) => token[column]),
  );
}

export function findToken(db: Db, owner: Owner, id: string): Promise<TokensTable | undefined> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where((eb) => eb.and(ownedBy(owner, id)))
    .executeTakeFirst();
}

/**
 * PostgreSQL reads the token and consumes it in one statement: every part sees the statement's
 * snapshot, so `found` keeps the sealed card that the update erases. The conditional update is the
 * race: of concurrent attempts on one token exactly one changes the row, and only that one is told
 * so. SQLite has one writer: the read and the update run one after the other. Columns are named,
 * never `*`: a prepared statement whose result gained a column (another instance migrating) would fail.
 */
const TAKE_TOKEN = prepared(`with found as (select ${columnList(TOKEN_COLUMNS)} from tokens where id = $1 and account_id = $2 and mode = $3),
  used as (update tokens set used_at = $4, card_secret = null where id = $1 and account_id = $2 and mode = $3 and used_at is null returning id)
  select ${columnList(TOKEN_COLUMNS, 'found')}, exists (select 1 from used) as consumed from found`);
const FIND_TOKEN = portable(`select ${columnList(TOKEN_COLUMNS)} from tokens where id = $1 and account_id = $2 and mode = $3`);
const CONSUME_TOKEN = portable('update tokens set used_at = $1, card_secret = null where id = $2 and used_at is null');

export type TakenToken = { token: TokensTable; consumed: boolean };

/** The owner's token as it was before this call, and whether this call marked it used (erasing its sealed card). */
export async function takeToken(db: Db, owner: Owner, id: string, now: number): Promise<TakenToken | undefined> {
  if (isPostgres(db)) {
    const [row] = await runText<TokensTable & { consumed: boolean }>(db, TAKE_TOKEN, [id, owner.accountId, owner.mode, now]);
    if (!row) return undefined;
    const { consumed, ...token } = row;
    return { token, consumed };
  }
  const [token] = await runStatement<TokensTable>(db, FIND_TOKEN, [id, owner.accountId, owner.mode]);
  if (!token) return undefined;
  if (token.used_at !== null) return { token, consumed: false };
  await runStatement(db, CONSUME_TOKEN, [now, id]);
  return { token, consumed: true };
}

/** The tokens of a page of charges, in one query. */
export async function tokensByIds(db: Db, ids: string[]): Promise<Map<string, TokensTable>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('tokens').selectAll().where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Erases an unused token's sealed card now (the test helper that ends its lifetime). Conditional
 * on the token being unused and still sealed, so a charge racing it sees either the whole token
 * or an expired one; answers whether this call erased it.
 */
export async function eraseUnusedTokenSecret(db: Db, owner: Owner, id: string): Promise<boolean> {
  const result = await db
    .updateTable('tokens')
    .set({ card_secret: null })
    .where((eb) => eb.and(ownedBy(owner, id)))
    .where('used_at', 'is', null)
    .where('card_secret', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
