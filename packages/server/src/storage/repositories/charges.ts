import type { Mode } from '@payframe/contract';
import type { Db } from '../db.ts';
import type { ChargesTable, TokensTable } from '../schema.ts';
import { allColumns, type BoundStatement, columnList, placeholders, portable, prepared, rowReader, runStatement, type Statement } from '../statements.ts';
import type { Owner } from './owned.ts';
import { TOKEN_COLUMNS, TOKEN_VIEW_COLUMNS, type TokenViewRow } from './tokens.ts';

const CHARGE_COLUMNS = allColumns<ChargesTable>()([
  'id',
  'account_id',
  'mode',
  'token_id',
  'amount',
  'amount_refunded',
  'currency',
  'description',
  'txn_reference',
  'return_url',
  'status',
  'threeds_status',
  'reason',
  'fees',
  'created_at',
  'updated_at',
  'version',
  'email',
  'last4',
  'threeds_scenario',
  'threeds_trans_status',
  'threeds_code_failures',
  'amount_captured',
  'metadata',
]);

/** What a charge's answer shows, with what its lifecycle needs to settle it on the caller's clock. */
export const CHARGE_VIEW_COLUMNS = [
  'id',
  'mode',
  'currency',
  'amount',
  'amount_captured',
  'amount_refunded',
  'fees',
  'description',
  'txn_reference',
  'return_url',
  'status',
  'threeds_status',
  'threeds_scenario',
  'threeds_trans_status',
  'threeds_code_failures',
  'reason',
  'created_at',
  'metadata',
] as const satisfies readonly (keyof ChargesTable)[];

export type ChargeViewRow = Pick<ChargesTable, (typeof CHARGE_VIEW_COLUMNS)[number]>;

const INSERT_CHARGE = portable(`insert into charges (${columnList(CHARGE_COLUMNS)}) values (${placeholders(CHARGE_COLUMNS.length)}) returning 1`);

/** The new charge's insert, to run with its event (events.ts); like every change, it returns a row when it wrote. */
export function chargeInsert(charge: ChargesTable): BoundStatement {
  return { statement: INSERT_CHARGE, params: CHARGE_COLUMNS.map((column) => charge[column]) };
}

/** The charge with its token in one read; token columns come back prefixed `t_` (the names overlap). */
function chargeWithTokenStatement(chargeColumns: readonly string[], tokenColumns: readonly string[]): Statement {
  // On PostgreSQL the charge is found by its id alone inside a subquery that `offset 0` keeps apart,
  // and its owner checked after: otherwise, on tables never analysed (a fresh deployment, until
  // autovacuum's first pass), the planner may serve `account_id = … and mode = … and id = …` from any
  // index that starts with the account and ends with the id, and a prepared statement keeps that plan,
  // a range scan of the whole account, long after the tables have grown. SQLite plans it by the
  // primary key either way (and has no `offset` without `limit`).
  const inner = [...new Set([...chargeColumns, 'token_id', 'account_id'])];
  return {
    postgres: prepared(
      `select ${columnList(chargeColumns, 'c')}, ${columnList(tokenColumns, 't', 't_')}
  from (select ${columnList(inner)} from charges where id = $1 offset 0) c join tokens t on t.id = c.token_id
  where c.account_id = $2 and c.mode = $3`,
    ),
    sqlite: `select ${columnList(chargeColumns, 'c')}, ${columnList(tokenColumns, 't', 't_')}
  from charges c join tokens t on t.id = c.token_id where c.id = ? and c.account_id = ? and c.mode = ?`,
  };
}

/** A read of one charge with its token: these columns of each, the token's prefixed `t_`. */
function chargeWithTokenReader<C, T>(chargeColumns: readonly (keyof C & string)[], tokenColumns: readonly (keyof T & string)[]) {
  const statement = chargeWithTokenStatement(chargeColumns, tokenColumns);
  const chargeOf = rowReader<C>(chargeColumns);
  const tokenOf = rowReader<T>(tokenColumns, 't_');
  return async (db: Db, owner: Owner, id: string): Promise<{ charge: C; token: T } | undefined> => {
    const [row] = await runStatement<Record<string, unknown>>(db, statement, [id, owner.accountId, owner.mode]);
    return row && { charge: chargeOf(row), token: tokenOf(row) };
  };
}

/** The whole rows, for a change. */
export const findChargeWithToken = chargeWithTokenReader<ChargesTable, TokensTable>(CHARGE_COLUMNS, TOKEN_COLUMNS);

/**
 * The same read for an answer only (a GET): the columns the answer shows, not the token's sealed card
 * nor the fields only a change writes. Fewer columns cost less to read and to make into objects.
 */
export const findChargeView = chargeWithTokenReader<ChargeViewRow, TokenViewRow>(CHARGE_VIEW_COLUMNS, TOKEN_VIEW_COLUMNS);

const MOVED_COLUMNS = [
  'status',
  'threeds_status',
  'threeds_trans_status',
  'threeds_code_failures',
  'reason',
  'amount_captured',
  'amount_refunded',
  'fees',
  'updated_at',
  'version',
  'metadata',
] as const satisfies readonly (keyof ChargesTable)[];

const UPDATE_CHARGE_IF_UNCHANGED = portable(
  `update charges set ${MOVED_COLUMNS.map((column, i) => `${column} = $${i + 1}`).join(', ')}
  where id = $${MOVED_COLUMNS.length + 1} and version = $${MOVED_COLUMNS.length + 2} returning 1`,
);

/**
 * Writes the charge's lifecycle fields only if nobody else changed it since it was read at
 * `readVersion`: changes one row only if this write won.
 */
export function chargeUpdate(next: ChargesTable, readVersion: number): BoundStatement {
  return { statement: UPDATE_CHARGE_IF_UNCHANGED, params: [...MOVED_COLUMNS.map((column) => next[column]), next.id, readVersion] };
}

/** The conditional update alone: answers whether this write won. */
export async function updateChargeIfUnchanged(db: Db, next: ChargesTable, readVersion: number): Promise<boolean> {
  const { statement, params } = chargeUpdate(next, readVersion);
  return (await runStatement(db, statement, params)).length === 1;
}

const UPDATE_METADATA_IF_UNCHANGED = portable(`update charges set metadata = $1, updated_at = $2, version = $3 where id = $4 and version = $5 returning 1`);

/**
 * Writes the charge's metadata only, if nobody changed the charge since `readVersion`. Only these
 * columns: the row read may have been settled (expiry applied), which is the sweeper's to record.
 */
export function chargeMetadataUpdate(next: ChargesTable, readVersion: number): BoundStatement {
  return { statement: UPDATE_METADATA_IF_UNCHANGED, params: [next.metadata, next.updated_at, next.version, next.id, readVersion] };
}

export type ChargeAccount = { accountId: string; mode: Mode; merchantName: string; testClockOffset: number };

/** Whose charge this is, found by id alone (the hosted 3-D Secure page has no API key). */
export async function findChargeAccount(db: Db, id: string): Promise<ChargeAccount | undefined> {
  const row = await db
    .selectFrom('charges')
    .innerJoin('accounts', 'accounts.id', 'charges.account_id')
    .select([
      'charges.account_id as accountId',
      'charges.mode as mode',
      'accounts.name as name',
      'accounts.display_name as displayName',
      'accounts.test_clock_offset as offset',
    ])
    .where('charges.id', '=', id)
    .executeTakeFirst();
  return row && { accountId: row.accountId, mode: row.mode, merchantName: row.displayName ?? row.name, testClockOffset: Number(row.offset) };
}
