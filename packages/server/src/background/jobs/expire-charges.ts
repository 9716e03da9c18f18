import { recordExpiries } from '../../services/expiry.ts';
import type { BackgroundJob } from './job.ts';

/** Expiry becomes an event: reads apply it exactly already; this records it, with `charge.expired`. */
export const expireCharges: BackgroundJob = {
  name: 'expire-charges',
  run: (db, now, services) => recordExpiries(db, services, now),
};
