import { PayframeError } from '@payframe/contract';
import {
  type StreamedEvent,
  type StreamPosition,
  settledEventsAfter,
  settledEventsOfOwners,
  streamPositionOf,
  streamStart,
} from '../storage/repositories/event-stream.ts';
import type { Owner } from '../storage/repositories/owned.ts';
import type { Store } from './context.ts';

export type { StreamedEvent };

export const FEED_BATCH = 200;
/** Open streams per account and mode on one instance. */
export const MAX_STREAMS = 10;
/** How often the instance asks the database for new events, for all its streams at once. */
const POLL_MS = 300;
/** What the 11th stream is told to wait: streams end only when their clients leave. */
const RETRY_AFTER_SECONDS = 10;

/** One open stream: where it has read up to, and where its events go. */
type Sink = { position: StreamPosition; skip: Set<number>; push(events: StreamedEvent[]): void };

/** The streams of one owner, all read up to `position` by the shared poll. */
type Shared = { owner: Owner; position: StreamPosition; sinks: Set<Sink> };

export type EventStreams = {
  /**
   * Opens a stream after the event `lastEventId` (400 RESOURCE_MISSING if the owner has no such
   * event) or, without one, with the events committed from now on; `push` receives its events in
   * order, each once. 429 RATE_LIMITED past MAX_STREAMS for the owner.
   */
  open(owner: Owner, lastEventId: string | undefined, push: (events: StreamedEvent[]) => void): Promise<{ close(): void }>;
  stop(): void;
};

export type PollFailure = (error: unknown, failing: boolean) => void;

function ownerKey(owner: Owner): string {
  return `${owner.accountId}:${owner.mode}`;
}

function after(a: StreamPosition, b: StreamPosition): boolean {
  return a.txid > b.txid || (a.txid === b.txid && a.seq > b.seq);
}

/** Gives the sink the events it has not had yet, and moves it past them. */
function deliver(sink: Sink, events: StreamedEvent[]): void {
  const fresh: StreamedEvent[] = [];
  for (const event of events) {
    if (!after(event, sink.position)) continue;
    sink.position = { txid: event.txid, seq: event.seq };
    if (sink.skip.delete(event.seq)) continue;
    fresh.push(event);
  }
  if (fresh.length > 0) sink.push(fresh);
}

/**
 * The live streams of one instance (docs/stream.md): one poll reads every open owner's new events
 * in one statement and hands them to that owner's streams, so the cost of polling grows with the
 * owners that have streams open, not with the streams. A stream that resumes from an earlier
 * event reads its way up to its owner's shared position on its own, then joins it.
 */
export function eventStreams(store: Store, onPollFailure: PollFailure): EventStreams {
  const counts = new Map<string, number>();
  const shared = new Map<string, Shared>();
  let timer: NodeJS.Timeout | undefined;
  let polling = false;
  let failing = false;
  let stopped = false;

  function schedule(delay: number): void {
    if (stopped || timer || polling || shared.size === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void poll();
    }, delay);
  }

  async function poll(): Promise<void> {
    polling = true;
    let more = false;
    const snapshot = [...shared.values()];
    try {
      const owners = snapshot.map((entry) => ({ ...entry.owner, position: entry.position }));
      // A transaction, not a plain read: on SQLite it resolves once the commits it saw are durable
      // (storage/group-commit.ts), so no event is streamed before its change is on disk.
      const rows = await store.transaction((db) => settledEventsOfOwners(db, owners, FEED_BATCH));
      const byOwner = new Map<string, StreamedEvent[]>();
      for (const row of rows) {
        const key = ownerKey(row);
        const list = byOwner.get(key);
        if (list) list.push(row);
        else byOwner.set(key, [row]);
      }
      for (const entry of snapshot) {
        const key = ownerKey(entry.owner);
        const events = byOwner.get(key) ?? [];
        // An owner whose streams all closed, and perhaps opened again from elsewhere, meanwhile: its next poll reads for it.
        if (shared.get(key) !== entry || events.length === 0) continue;
        for (const sink of entry.sinks) deliver(sink, events);
        const last = events.at(-1)!;
        entry.position = { txid: last.txid, seq: last.seq };
        if (events.length === FEED_BATCH) more = true;
      }
      failing = false;
    } catch (error) {
      // The database is away for a moment: the streams stay open, and the next poll tries again.
      onPollFailure(error, failing);
      failing = true;
    } finally {
      polling = false;
    }
    schedule(more ? 0 : POLL_MS);
  }

  async function startOf(owner: Owner, lastEventId: string | undefined): Promise<Pick<Sink, 'position' | 'skip'>> {
    if (lastEventId === undefined) {
      const start = await store.read((db) => streamStart(db, owner));
      return { position: start.position, skip: new Set(start.alreadyVisible) };
    }
    const found = await store.read((db) => streamPositionOf(db, owner, lastEventId));
    if (!found) throw new PayframeError('RESOURCE_MISSING', 'No such event.', { parameter: 'Last-Event-ID', status: 400 });
    return { position: found, skip: new Set() };
  }

  /** Reads on its own until the sink has caught up with its owner's shared position, then joins it; no await between the check and the join. */
  async function join(owner: Owner, sink: Sink): Promise<void> {
    const key = ownerKey(owner);
    for (;;) {
      const entry = shared.get(key);
      if (!entry) {
        shared.set(key, { owner, position: sink.position, sinks: new Set([sink]) });
        return;
      }
      if (!after(entry.position, sink.position)) {
        entry.sinks.add(sink);
        return;
      }
      const upTo = entry.position;
      const events = await store.transaction((db) => settledEventsAfter(db, owner, sink.position, FEED_BATCH, upTo));
      deliver(sink, events);
      if (events.length < FEED_BATCH) sink.position = upTo;
    }
  }

  return {
    async open(owner, lastEventId, push) {
      const key = ownerKey(owner);
      const open = counts.get(key) ?? 0;
      if (open >= MAX_STREAMS) {
        throw new PayframeError('RATE_LIMITED', `At most ${MAX_STREAMS} event streams may be open at once for an account and mode: close one first.`, {
          headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
        });
      }
      counts.set(key, open + 1);
      let sink: Sink | undefined;
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        const left = (counts.get(key) ?? 1) - 1;
        if (left > 0) counts.set(key, left);
        else counts.delete(key);
        const entry = shared.get(key);
        if (entry && sink && entry.sinks.delete(sink) && entry.sinks.size === 0) shared.delete(key);
      };
      try {
        sink = { ...(await startOf(owner, lastEventId)), push };
        await join(owner, sink);
      } catch (error) {
        close();
        throw error;
      }
      schedule(POLL_MS);
      return { close };
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
