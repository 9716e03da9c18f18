import { pingDatabase } from '../storage/repositories/health.ts';
import type { Store } from './context.ts';

/** Ready means the database answers, not merely that the process is up. */
export function checkHealth(store: Store): Promise<void> {
  return store.read(pingDatabase);
}
