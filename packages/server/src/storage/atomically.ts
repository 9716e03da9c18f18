import type { Kysely } from 'kysely';
import { retryingTransient } from './transient.ts';

type PartRunner = <T>(work: () => Promise<T>) => Promise<T>;

/**
 * Transactions whose work is not all or nothing by itself: SQLite's writes run in the open batch
 * of the group commit without a savepoint (group-commit.ts), and say here how to make one part of
 * their work all or nothing. Any other transaction is all or nothing already.
 */
const partRunners = new WeakMap<Kysely<never>, PartRunner>();

export function runsPartsAtomically(tx: Kysely<never>, run: PartRunner): void {
  partRunners.set(tx, run);
}

/**
 * Runs `work` all or nothing: in the caller's transaction, or in a new one when the caller has
 * none (Store.write on PostgreSQL), or in a savepoint of its own inside a write that has none
 * (Store.write on SQLite).
 */
export function atomically<DB, T>(db: Kysely<DB>, work: (tx: Kysely<DB>) => Promise<T>): Promise<T> {
  if (!db.isTransaction) return retryingTransient(() => db.transaction().execute(work));
  const runPart = partRunners.get(db as unknown as Kysely<never>);
  return runPart ? runPart(() => work(db)) : work(db);
}
