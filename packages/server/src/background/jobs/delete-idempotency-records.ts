import { REPLAY_WINDOW_MS } from '../../services/idempotency.ts';
import { deleteIdempotencyRecordsBefore } from '../../storage/repositories/sweeps.ts';
import type { BackgroundJob } from './job.ts';

/** Stored responses hold shoppers' details: they go once they can no longer be replayed. */
export const deleteIdempotencyRecords: BackgroundJob = {
  name: 'delete-idempotency-records',
  run: (db, now) => deleteIdempotencyRecordsBefore(db, now - REPLAY_WINDOW_MS),
};
