import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { makePrivateFile, PRIVATE_FILE_MODE, prepareDataDirectory } from './file-modes.ts';
import { BUSY_TIMEOUT_MS } from './wal-mode.ts';

export const SQLITE_FILE = 'payframe.sqlite3';
export const MASTER_KEY_FILE = 'master.key';

/** Every page at once: a backup that copies in steps starts over whenever the server commits between two. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the embedded store of `dataDir` into `to` with SQLite's online backup, while a server may
 * be writing to it. The copy is one read transaction: it holds every commit made before it began
 * (an acknowledged write was committed before its response), and none half made. It is written
 * beside `to` and renamed over it once synced, so a crash never leaves a torn backup at `to`.
 */
export async function backupSqliteStore(dataDir: string, to: string): Promise<{ bytes: number }> {
  const source = join(dataDir, SQLITE_FILE);
  if (!existsSync(source)) throw new Error(`${dataDir} holds no Payframe database (${SQLITE_FILE})`);
  const partial = join(dirname(to), `.${basename(to)}.partial-${process.pid}`);
  const db = new SqliteDatabase(source, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    makePrivateFile(partial);
    await db.backup(partial, { progress: () => ALL_PAGES });
    syncFile(partial);
    renameSync(partial, to);
    syncFile(dirname(to));
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  return { bytes: statSync(to).size };
}

export type RestoreResult = { database: string; masterKey: string | null };

/**
 * Makes `dataDir` (new, or without a database) serve the backup `from`: the file is checked, then
 * copied in owner-only. The master key travels separately: copied from `masterKeyFile` when given.
 */
export function restoreSqliteStore(from: string, dataDir: string, masterKeyFile?: string): RestoreResult {
  const database = join(dataDir, SQLITE_FILE);
  // Never over a store that may be live: a restore makes a data directory, it does not roll one back.
  if (existsSync(database)) throw new Error(`${dataDir} already holds a database: restore into a new data directory`);
  checkBackup(from);
  const masterKey = join(dataDir, MASTER_KEY_FILE);
  if (masterKeyFile !== undefined && existsSync(masterKey))
    throw new Error(`${masterKey} exists already: leave out --master-key-file, or restore into a new data directory`);
  prepareDataDirectory(dataDir);
  // The key first: a wrong --master-key-file then leaves no database behind, and the same command,
  // corrected, can run again. A database that fails to copy takes the key it came with away again.
  if (masterKeyFile !== undefined) copyPrivately(masterKeyFile, masterKey);
  try {
    copyPrivately(from, database);
  } catch (error) {
    if (masterKeyFile !== undefined) rmSync(masterKey, { force: true });
    throw error;
  }
  syncFile(dataDir);
  return { database, masterKey: masterKeyFile !== undefined ? masterKey : null };
}

/** A backup that SQLite finds whole and that holds Payframe's tables; anything else is refused before it is copied. */
function checkBackup(file: string): void {
  if (!existsSync(file)) throw new Error(`no backup at ${file}`);
  let db: SqliteDatabase.Database;
  try {
    db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Error(`${file} is not a SQLite database: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`${file} is damaged: ${String(integrity)}`);
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name in ('charges', 'api_keys')").pluck().all();
    if (tables.length !== 2) throw new Error(`${file} is not a Payframe backup (no charges or api_keys table)`);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith(file)) throw error;
    throw new Error(`${file} is not a Payframe backup: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    db.close();
  }
}

/** Copies owner-only and synced: made 0600 before a byte is written, renamed into place whole. */
function copyPrivately(from: string, to: string): void {
  const partial = `${to}.partial-${process.pid}`;
  makePrivateFile(partial);
  try {
    copyFileSync(from, partial);
    syncFile(partial);
    renameSync(partial, to);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  if ((statSync(to).mode & 0o777) !== PRIVATE_FILE_MODE) throw new Error(`${to} is not owner-only`);
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
