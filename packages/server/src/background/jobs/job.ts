import type { Kysely } from 'kysely';
import type { ServiceDeps } from '../../services/context.ts';
import type { Database } from '../../storage/schema.ts';

/** A piece of background work. `run` must be safe to run twice or concurrently: its updates are conditional per row. */
export type BackgroundJob = {
  name: string;
  /** Runs in one transaction; answers how many rows it changed. `now` is the real clock. */
  run(db: Kysely<Database>, now: number, services: ServiceDeps): Promise<number>;
};
