import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** When the worker copies the WAL into the database, and when it has the WAL start over. */
export type CheckpointPolicy = {
  /** How often a PASSIVE checkpoint copies what was committed since the last one. */
  everyMs: number;
  /** WAL length in pages past which writes pause for a RESTART: the bound on the WAL. */
  restartAtPages: number;
};

/**
 * A PASSIVE checkpoint every 5 s writes each page it finds once, however many commits rewrote it
 * since the last pass (the hot index pages): about as often as SQLite's own autocheckpoint ran at
 * 10,000 pages under the flow bench. A pass every 250 ms wrote the same pages back many times as
 * often, for more CPU per flow in paired bench runs (docs/performance.md).
 * 10,000 pages is the WAL length that autocheckpoint let the store reach.
 */
export const DEFAULT_CHECKPOINTS: CheckpointPolicy = { everyMs: 5_000, restartAtPages: 10_000 };

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
// Waits out another process's transaction (the CLI) when restarting; then gives up until the next pass.
db.pragma('busy_timeout = 200');
const checkpoint = (mode) => db.pragma('wal_checkpoint(' + mode + ')')[0];
parentPort.postMessage({ type: 'ready' });
let waiting = false;
// The WAL's length at the last RESTART: until the next COMMIT starts the WAL over, it still reads so.
let restartedAt = -1;
const timer = setInterval(() => {
  if (waiting) return;
  const { log } = checkpoint('PASSIVE');
  if (log >= workerData.restartAtPages && log !== restartedAt) {
    waiting = true;
    parentPort.postMessage({ type: 'pause' });
  }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'restart') {
    // Busy (another process writing): the WAL goes on, and the next pass asks again.
    restartedAt = checkpoint('RESTART').log;
    waiting = false;
    parentPort.postMessage({ type: 'restarted' });
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
 * steady load never happens: so past `restartAtPages` the worker asks for `paused`, which must
 * run `restart` while no transaction is open; the RESTART copies the rest, and the next COMMIT
 * writes the WAL from its start again. Not TRUNCATE: a WAL that grows again from nothing makes
 * every fdatasync write the file's new size too (a pause several times RESTART's).
 * A crash at any point is SQLite's to recover: a checkpoint never changes the WAL, and SQLite
 * writes over it only once the database file holding all of it has been fsynced.
 *
 * If the worker dies or a pause fails, `failed` (called once) restores SQLite's own checkpoints on the main thread.
 */
export async function startCheckpointer(
  file: string,
  policy: CheckpointPolicy,
  hooks: { paused(restart: () => Promise<void>): Promise<void>; failed(error: unknown): void },
): Promise<WalCheckpointer> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, ...policy } });
  let closing = false;
  let exited = false;
  let restarted: (() => void) | undefined;
  const restart = () =>
    new Promise<void>((resolve) => {
      if (exited) return resolve();
      // Writes wait on the answer: referenced meanwhile, or a CLI with nothing else to do would exit.
      worker.ref();
      restarted = () => {
        worker.unref();
        resolve();
      };
      worker.postMessage('restart');
    });
  let failed = false;
  const fail = (error: unknown) => {
    if (failed || closing) return;
    failed = true;
    hooks.failed(error);
  };
  let ready: () => void = () => {};
  const started = new Promise<void>((resolve) => (ready = resolve));
  worker.on('message', (message: { type: 'ready' | 'pause' | 'restarted' }) => {
    if (message.type === 'ready') ready();
    else if (message.type === 'pause') void hooks.paused(restart).catch(fail);
    else restarted?.();
  });
  worker.on('error', fail);
  worker.on('exit', (code) => {
    exited = true;
    ready();
    restarted?.();
    fail(new Error(`WAL checkpointer exited with code ${code}`));
  });
  // Writes from the first on count towards the bound: the store opens once the worker checkpoints.
  await started;
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
