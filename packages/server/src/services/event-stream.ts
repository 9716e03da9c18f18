import { PayframeError } from '@payframe/contract';
import { type StreamedEvent, settledEventsAfter, type StreamPosition, streamPositionOf, streamStart } from '../storage/repositories/event-stream.ts';
import type { Owner } from '../storage/repositories/owned.ts';
import type { Store } from './context.ts';

export type { StreamedEvent };

/** The events of one account and mode as they commit, read in order by repeated polls. */
export type EventFeed = {
  /** The events that became final since the last call, oldest first; at most `BATCH` at once. */
  poll(): Promise<StreamedEvent[]>;
};

export const FEED_BATCH = 200;

/**
 * Opens a feed after the event `lastEventId` (400 RESOURCE_MISSING if the owner has no such
 * event) or, without one, with the events committed from now on.
 */
export async function openEventFeed(store: Store, owner: Owner, lastEventId: string | undefined): Promise<EventFeed> {
  let position: StreamPosition;
  let skip = new Set<number>();
  if (lastEventId !== undefined) {
    const found = await store.read((db) => streamPositionOf(db, owner, lastEventId));
    if (!found) throw new PayframeError('RESOURCE_MISSING', 'No such event.', { parameter: 'Last-Event-ID', status: 400 });
    position = found;
  } else {
    const start = await store.read((db) => streamStart(db, owner));
    position = start.position;
    skip = new Set(start.alreadyVisible);
  }
  return {
    async poll() {
      // A transaction, not a plain read: on SQLite it resolves once the commits it saw are durable
      // (storage/group-commit.ts), so no event is streamed before its change is on disk.
      const events = await store.transaction((db) => settledEventsAfter(db, owner, position, FEED_BATCH));
      const last = events.at(-1);
      if (last) position = { txid: last.txid, seq: last.seq };
      if (skip.size === 0) return events;
      const fresh = events.filter((event) => !skip.has(event.seq));
      for (const event of events) skip.delete(event.seq);
      return fresh;
    },
  };
}
