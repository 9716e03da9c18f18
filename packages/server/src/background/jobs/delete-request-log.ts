import { REQUEST_LOG_DAYS } from '@payframe/contract';
import { deleteRequestLogBefore } from '../../storage/repositories/request-log.ts';
import type { BackgroundJob } from './job.ts';

const KEPT_MS = REQUEST_LOG_DAYS * 24 * 60 * 60 * 1000;

/** The request log keeps 7 days of requests (real time). */
export const deleteRequestLog: BackgroundJob = {
  name: 'delete-request-log',
  run: (db, now) => deleteRequestLogBefore(db, now - KEPT_MS),
};
