import { closeSync, fdatasync, openSync } from 'node:fs';

/** Makes the database's WAL durable: see group-commit.ts for why this suffices. */
export type SyncWal = () => Promise<void>;

/**
 * fdatasync of the `-wal` file, on libuv's threadpool so the main thread serves requests
 * meanwhile. Opened at the first sync: SQLite creates the file when it first reads in WAL mode, and
 * it keeps one inode while this connection is open (a checkpoint's reset rewrites it from the
 * start; only the last connection to close deletes it). fdatasync also writes the file's size when
 * the WAL grew, which is all of its metadata a reader needs.
 */
export function walSyncer(walPath: string): { sync: SyncWal; close(): void } {
  let fd: number | undefined;
  return {
    sync: () =>
      new Promise<void>((resolve, reject) => {
        fd ??= openSync(walPath, 'r');
        fdatasync(fd, (error) => (error ? reject(error) : resolve()));
      }),
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
