import { CompiledQuery, PostgresAdapter, sql } from 'kysely';
import type { OverviewDelta } from '../../domain/overview.ts';
import type { Db } from '../db.ts';
import type { ChargesTable, RefundsTable, TokensTable } from '../schema.ts';
import type { NewEvent } from './events.ts';
import { addOverview } from './overview.ts';

/** `overview`: the home page's counters of the batch, by UTC day, then by metric and currency. */
export type SeedBatch = {
  tokens: TokensTable[];
  charges: ChargesTable[];
  refunds: RefundsTable[];
  events: NewEvent[];
  overview: Map<number, Map<string, OverviewDelta>>;
};

/** A table row as the bulk path reads it: column name to value. */
type Row = Record<string, unknown>;

/** Rows per PostgreSQL statement: one parameter carries them all, so only the message size bounds it. */
const POSTGRES_ROWS_PER_STATEMENT = 5_000;

const quoted = (name: string) => `"${name}"`;

/**
 * SQLite: one prepared single-row insert run per row. The work is in-process, so a statement per
 * row costs nothing in round trips, and it beats a multi-row VALUES list, whose large program and
 * flat parameter array cost more per row than the statement does.
 */
async function sqliteInserts(db: Db, table: string, columns: string[], rows: Row[]): Promise<void> {
  // One compiled query per table; each row only brings its parameters (raw() would build a node per row).
  const query = CompiledQuery.raw(`insert into ${quoted(table)} (${columns.map(quoted).join(',')}) values (${columns.map(() => '?').join(',')})`);
  await db.getExecutor().provideConnection(async (connection) => {
    for (const row of rows) {
      const parameters = new Array<unknown>(columns.length);
      for (let index = 0; index < columns.length; index++) parameters[index] = row[columns[index]!];
      await connection.executeQuery({ ...query, parameters });
    }
  });
}

/**
 * PostgreSQL: each chunk travels as one JSON array, turned back into rows of the table's own type
 * by json_populate_recordset. V8 writes JSON natively, far cheaper than pg's escaping of one
 * array literal per column.
 */
function postgresInserts(table: string, columns: string[], rows: Row[]): CompiledQuery[] {
  const list = columns.map(quoted).join(',');
  const text = `insert into ${quoted(table)} (${list}) select ${list} from json_populate_recordset(null::${quoted(table)}, $1::json)`;
  const queries: CompiledQuery[] = [];
  for (let start = 0; start < rows.length; start += POSTGRES_ROWS_PER_STATEMENT) {
    queries.push(CompiledQuery.raw(text, [JSON.stringify(rows.slice(start, start + POSTGRES_ROWS_PER_STATEMENT))]));
  }
  return queries;
}

/** Writes generated rows in bulk, in the caller's transaction: tokens before the charges that use them. */
export async function insertSeedBatch(db: Db, batch: SeedBatch, owner: { accountId: string; mode: 'test' }): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const tables: Array<[string, object[]]> = [
    ['tokens', batch.tokens],
    ['charges', batch.charges],
    ['refunds', batch.refunds],
    ['events', batch.events],
  ];
  for (const [table, rows] of tables) {
    if (rows.length === 0) continue;
    // Every row of a table comes from one object shape: the first names the columns.
    const columns = Object.keys(rows[0]!);
    const values = rows as Row[];
    if (postgres) for (const query of postgresInserts(table, columns, values)) await db.executeQuery(query);
    else await sqliteInserts(db, table, columns, values);
  }
  // A few hundred counter rows a batch, added to what earlier batches wrote for the same days.
  for (const [day, counters] of batch.overview) {
    await addOverview(db, { accountId: owner.accountId, mode: owner.mode, day, shard: 0, deltas: [...counters.values()] });
  }
}

/**
 * Before a bulk load on SQLite: a page cache that holds what a large transaction dirties. Inserts
 * keyed by random ids (charges, tokens, events) touch pages all over their indexes; held in
 * memory, a page written by many rows of the transaction goes to the file once, at its commit
 * (about a quarter less CPU at a million charges). The connection is the seed's own.
 */
export async function prepareBulkLoad(db: Db): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) await sql`pragma cache_size = -1048576`.execute(db);
}

/**
 * After a bulk load: fresh planner statistics, so that each list filter gets its index at once.
 * PostgreSQL also vacuums the new rows: their visibility is then settled once here, instead of
 * by the first reads of every page (hint bits), and index-only scans need no heap fetches.
 */
export async function analyzeAfterBulkLoad(db: Db): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`vacuum (analyze) tokens, charges, refunds, events`.execute(db);
    return;
  }
  await sql`analyze`.execute(db);
  // With STAT4 samples SQLite recompiles a statement whenever a value bound to an indexed column
  // changes (every read of a charge by id, several times the CPU of a cached plan); the per-index
  // counts of sqlite_stat1 are what the lists' plans need. `analyze sqlite_schema` reloads them.
  await sql`delete from sqlite_stat4`.execute(db);
  await sql`analyze sqlite_schema`.execute(db);
}
