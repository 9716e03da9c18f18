import { setTimeout as delay } from 'node:timers/promises';
import type SqliteDatabase from 'better-sqlite3';

/** How long a store connection waits for another's write lock (its busy_timeout), and for a switch to WAL. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Puts the store in WAL mode, waiting out another connection that holds the write lock. SQLite
 * answers a journal-mode change SQLITE_BUSY at once, without its busy handler, while another
 * connection holds the write lock: so two processes starting together on a fresh store (a server
 * and `payframe keys create`, or two servers) would see one of them fail with "database is
 * locked" when both write the new file's header. Such a switch is tried again for as long as
 * a write would wait (BUSY_TIMEOUT_MS).
 */
export async function switchToWal(sqlite: SqliteDatabase.Database, file: string, waitMs = BUSY_TIMEOUT_MS): Promise<void> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    try {
      if (sqlite.pragma('journal_mode = WAL', { simple: true }) !== 'wal') throw new Error(`SQLite cannot use WAL mode for ${file}`);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || performance.now() >= deadline) throw error;
      // Jittered, so that processes which collided once do not collide again in step.
      await delay(5 + Math.random() * 20);
    }
  }
}
