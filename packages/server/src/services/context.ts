import type { Acquirer } from '../acquirer/acquirer.ts';
import type { Clock } from '../domain/clock.ts';
import type { FeeSchedule } from '../domain/fees.ts';
import type { IdGenerator } from '../ids.ts';
import type { ServerSecrets } from '../security/secrets.ts';
import type { Owner } from '../storage/repositories/owned.ts';

/**
 * What http/ holds of storage: the store (a runner for reads and durable transactions) and the
 * handle a transaction passes to services. Opaque to it: only services and repositories use them.
 */
export type { Db, Store } from '../storage/db.ts';

export type ServiceDeps = {
  secrets: ServerSecrets;
  /** The operator's live-mode acquirer; null refuses live money movement. */
  liveAcquirer: Acquirer | null;
  testAcquirer: Acquirer;
  fees: FeeSchedule;
  threeDSUrl: () => string;
  ids: IdGenerator;
  /** The real time; a caller's time adds its account's test clock (see Caller). */
  clock: Clock;
};

/** Who is asking, and what time it is for them (the test clock applies in test mode). */
export type Caller = Owner & { now: number };
