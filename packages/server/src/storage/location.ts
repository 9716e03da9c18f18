import type { Config } from '../config.ts';
import type { StorageLocation } from './db.ts';

/** Where the data lives; PostgreSQL is its own issue, so a URL is refused plainly rather than half-served. */
export function storageLocation(config: Pick<Config, 'dataDir' | 'databaseUrl'>): StorageLocation {
  if (config.databaseUrl) {
    throw new Error('DATABASE_URL / --database-url (PostgreSQL) is not supported by this build yet; use --data-dir.');
  }
  return { kind: 'sqlite', dataDir: config.dataDir };
}
