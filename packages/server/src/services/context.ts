import type { Mode, PayframeError } from '@payframe/contract';
import type { Kysely } from 'kysely';
import type { Acquirer } from '../acquirer/acquirer.ts';
import type { FeeSchedule } from '../domain/fees.ts';
import type { IdGenerator } from '../ids.ts';
import type { ServerSecrets } from '../security/secrets.ts';
import type { Database } from '../storage/schema.ts';

/** A connection or a transaction: services run inside whichever the caller opened. */
export type Db = Kysely<Database>;

export type ServiceDeps = {
  secrets: ServerSecrets;
  /** The operator's live-mode acquirer; null refuses live money movement. */
  liveAcquirer: Acquirer | null;
  testAcquirer: Acquirer;
  fees: FeeSchedule;
  threeDSUrl: () => string;
  ids: IdGenerator;
};

/** Who is asking, and what time it is for them (the test clock applies in test mode). */
export type Caller = { accountId: string; mode: Mode; now: number };

/** Payment failures whose side effects must still commit (a declined charge consumes its token). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: PayframeError };

/** The row with this id, if it belongs to the caller's account and mode: other tenants' rows do not exist. */
export function ownedBy(caller: Caller, id: string) {
  return { id, account_id: caller.accountId, mode: caller.mode };
}
