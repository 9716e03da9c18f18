import type { Kysely } from 'kysely';
import { openPostgresStore, type PostgresOptions } from './postgres.ts';
import type { Database } from './schema.ts';
import { openSqliteStore } from './sqlite.ts';

export type StorageLocation = { kind: 'sqlite'; dataDir: string } | ({ kind: 'postgres' } & PostgresOptions);

export type Store = {
  /** For reads and single statements. */
  db: Kysely<Database>;
  /** Runs `work` in a transaction and resolves only once its commit is durable. */
  transaction<T>(work: (tx: Kysely<Database>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

/** Opens the store, runs pending migrations and returns it ready for requests. */
export function openStore(location: StorageLocation): Promise<Store> {
  return location.kind === 'sqlite' ? openSqliteStore(location.dataDir) : openPostgresStore(location);
}
