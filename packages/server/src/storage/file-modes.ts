import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Owner-only: shoppers' details and key material are nobody else's business, whatever the umask. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;

/** How an existing data directory lets other users in; null when only its owner can. */
export type DataDirectoryExposure = { dataDir: string; mode: string } | null;

/**
 * Makes the data directory owner-only when it is new. An existing one keeps the operator's mode
 * (they may have reasons), but if the group or others can read it the caller warns.
 */
export function prepareDataDirectory(dataDir: string): DataDirectoryExposure {
  const created = mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE }) !== undefined;
  if (created) {
    chmodSync(dataDir, PRIVATE_DIRECTORY_MODE);
    return null;
  }
  const mode = statSync(dataDir).mode & 0o777;
  return (mode & 0o077) === 0 ? null : { dataDir, mode: `0${mode.toString(8)}` };
}

/** Creates the file owner-only if missing, and makes it owner-only if it exists. */
export function makePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
  chmodSync(path, PRIVATE_FILE_MODE);
}

/** Makes the file owner-only if it exists (SQLite makes its WAL and SHM files itself). */
export function restrictIfPresent(path: string): void {
  try {
    chmodSync(path, PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
