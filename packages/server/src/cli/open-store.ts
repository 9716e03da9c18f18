import type { Config } from '../config.ts';
import { openStore, type Store } from '../storage/db.ts';
import { storageLocation } from '../storage/location.ts';

/** Runs one piece of work against the store and always closes it, even when the work fails. */
export async function withStore<T>(config: Config, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore(storageLocation(config), 'command');
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}
