import type { Config } from '../config.ts';
import type { StorageLocation } from './db.ts';

type StorageConfig = Pick<Config, 'dataDir' | 'databaseUrl' | 'dbPoolSize' | 'dbStatementTimeoutMs' | 'dbConnectTimeoutMs'>;

/** A database URL selects PostgreSQL; otherwise the embedded SQLite store in the data directory. */
export function storageLocation(config: StorageConfig, onPoolError: (error: Error) => void = () => {}): StorageLocation {
  if (!config.databaseUrl) return { kind: 'sqlite', dataDir: config.dataDir };
  return {
    kind: 'postgres',
    url: config.databaseUrl,
    poolSize: config.dbPoolSize,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    onPoolError,
  };
}
