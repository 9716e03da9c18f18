import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** When the worker copies the WAL into the database, and when it empties the WAL. */
export type CheckpointPolicy = {
  /** How often a PASSIVE checkpoint copies what was committed since the last one. */
  everyMs: number;
  /** WAL length in pages past which writes pause for a TRUNCATE: the bound on the WAL. */
  truncateAtPages: number;
};

/**
 * A PASSIVE checkpoint about 4 times a second writes each page it finds once (the hot index pages
 * many commits rewrote) while keeping each pass short; 10,000 pages (40 MB at 4 KB) is the WAL
 * length SQLite's own autocheckpoint let the store reach before.
 */
export const DEFAULT_CHECKPOINTS: CheckpointPolicy = { everyMs: 250, truncateAtPages: 10_000 };

/**
 * The worker's source, plain JavaScript: the CLI runs the server from one esbuild bundle
 * (bin/payframe.js), where a worker module of its own would not exist. It checkpoints on its own
 * connection, so the page copies and the database file's fsync leave the thread serving requests.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
// As at FULL: the WAL is fsynced before each checkpoint, the database after it.
db.pragma('synchronous = NORMAL');
// Waits out another process's write transaction (the CLI) when truncating; then gives up until the next pass.
db.pragma('busy_timeout = 200');
const checkpoint = (mode) => db.pragma('wal_checkpoint(' + mode + ')')[0];
let waiting = false;
const timer = setInterval(() => {
  if (waiting) return;
  const { log } = checkpoint('PASSIVE');
  if (log >= workerData.truncateAtPages) {
    waiting = true;
    parentPort.postMessage({ type: 'pause' });
  }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'truncate') {
    // Busy (another process writing): the WAL stays, and the next pass asks again.
    checkpoint('TRUNCATE');
    waiting = false;
    parentPort.postMessage({ type: 'truncated' });
  } else if (message === 'close') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

export type WalCheckpointer = {
  /** Stops the worker and closes its connection. */
  close(): Promise<void>;
};

/**
 * Checkpoints the store's WAL on a worker thread (the main connection runs with
 * wal_autocheckpoint = 0). PASSIVE checkpoints never block the writer, but the writer starts the
 * WAL over only when a checkpoint has copied all of it before its transaction began, which under
 * steady load never happens: so past `truncateAtPages` the worker asks for `paused`, which must
 * run `truncate` while no transaction is open, and the TRUNCATE copies the rest and empties the
 * WAL. A crash at any point is SQLite's to recover: a checkpoint never changes the WAL, and the
 * WAL is emptied only after the database file holding all of it has been fsynced.
 *
 * If the worker dies or a pause fails, `failed` (called once) restores SQLite's own checkpoints on the main thread.
 */
export function startCheckpointer(
  file: string,
  policy: CheckpointPolicy,
  hooks: { paused(truncate: () => Promise<void>): Promise<void>; failed(error: unknown): void },
): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, ...policy } });
  let closing = false;
  let exited = false;
  let truncated: (() => void) | undefined;
  const truncate = () =>
    new Promise<void>((resolve) => {
      if (exited) return resolve();
      // Writes wait on the answer: referenced meanwhile, or a CLI with nothing else to do would exit.
      worker.ref();
      truncated = () => {
        worker.unref();
        resolve();
      };
      worker.postMessage('truncate');
    });
  let failed = false;
  const fail = (error: unknown) => {
    if (failed || closing) return;
    failed = true;
    hooks.failed(error);
  };
  worker.on('message', (message: { type: 'pause' | 'truncated' }) => {
    if (message.type === 'pause') void hooks.paused(truncate).catch(fail);
    else truncated?.();
  });
  worker.on('error', fail);
  worker.on('exit', (code) => {
    exited = true;
    truncated?.();
    fail(new Error(`WAL checkpointer exited with code ${code}`));
  });
  // The worker keeps no request waiting: it must not keep the process alive either.
  worker.unref();
  return {
    async close() {
      if (closing || exited) return;
      closing = true;
      const exit = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      // Referenced again, or nothing would keep the process alive until the worker has exited.
      worker.ref();
      worker.postMessage('close');
      await exit;
    },
  };
}
