import type { Event, EventName } from '@payframe/contract';

/** What `waitForEvent` needs of a client: `new Payframe(secretKey, …)` from @payframe/node has it. */
export type EventsClient = {
  events: { list(params: { name?: EventName; charge?: string; limit?: number }): PromiseLike<{ data: Event[] }> };
};

export type WaitForEventOptions = {
  name: EventName;
  /** The charge id the event is about. */
  charge: string;
  /** Default 15 s: deliveries and the sweeper run in the background, seconds after the change. */
  timeoutMs?: number;
  /** Default 250 ms. */
  intervalMs?: number;
};

/**
 * Resolves with the newest event of this name about this charge, polling `events.list` through the
 * SDK until one exists; rejects after `timeoutMs`. For tests that must not move on before Payframe
 * has recorded a change, e.g. `charge.expired` after a test-clock advance.
 */
export async function waitForEvent(payframe: EventsClient, options: WaitForEventOptions): Promise<Event> {
  const { name, charge, timeoutMs = 15_000, intervalMs = 250 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [event] = (await payframe.events.list({ name, charge, limit: 1 })).data;
    if (event) return event;
    if (Date.now() >= deadline) throw new Error(`no ${name} event for charge ${charge} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
