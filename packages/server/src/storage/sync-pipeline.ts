import type { SyncWal } from './wal-sync.ts';

export type Waiter = { resolve(): void; reject(error: unknown): void };

/**
 * Acknowledges commits once an fsync that began after them has completed. One sync runs at a time;
 * commits made meanwhile wait for the next one, which covers them all. A failed sync fails its
 * waiters and every later one: after a failed fsync Linux may have dropped the unwritten pages, so a
 * later fsync can succeed without them (PostgreSQL's "fsyncgate"). Nothing is acknowledged again
 * until a restart, when SQLite recovers from what reached the disk.
 */
export class SyncPipeline {
  readonly #sync: SyncWal;
  /** Waiters of the sync in flight, or undefined when none runs. */
  #inFlight: Waiter[] | undefined;
  /** Waiters of the next sync. */
  #next: Waiter[] = [];
  /** Whether anything was committed since the last sync began. */
  #dirty = false;
  #failure: { error: unknown } | undefined;
  readonly #onIdle: () => void;

  /** `onIdle` runs whenever a sync completes with none to follow it. */
  constructor(sync: SyncWal, onIdle: () => void) {
    this.#sync = sync;
    this.#onIdle = onIdle;
  }

  get syncing(): boolean {
    return this.#inFlight !== undefined;
  }

  /**
   * A COMMIT has returned: its waiters are acknowledged by the next sync to begin. A commit nobody
   * waits for begins none: the next sync anything waits for covers its frames too.
   */
  committed(waiters: Waiter[]): void {
    this.#dirty = true;
    this.#next.push(...waiters);
    this.#start();
  }

  /** Settles once everything committed so far is on disk. */
  wait(waiter: Waiter): void {
    if (this.#failure) waiter.reject(this.#failure.error);
    else if (this.#dirty) {
      this.#next.push(waiter);
      this.#start();
    } else if (this.#inFlight) this.#inFlight.push(waiter);
    else waiter.resolve();
  }

  #start(): void {
    // Only a waiter begins a sync: frames nobody waits for wait for the next one.
    if (this.#inFlight || !this.#dirty || this.#next.length === 0) return;
    if (this.#failure) {
      for (const waiter of this.#next.splice(0)) waiter.reject(this.#failure.error);
      return;
    }
    const waiters = this.#next;
    this.#next = [];
    this.#inFlight = waiters;
    this.#dirty = false;
    this.#sync().then(
      () => this.#settle(waiters),
      (error: unknown) => {
        this.#failure = { error };
        this.#settle(waiters);
      },
    );
  }

  #settle(waiters: Waiter[]): void {
    this.#inFlight = undefined;
    if (this.#failure) {
      for (const waiter of [...waiters, ...this.#next.splice(0)]) waiter.reject(this.#failure.error);
    } else {
      for (const waiter of waiters) waiter.resolve();
      this.#start();
    }
    if (!this.#inFlight) this.#onIdle();
  }
}
