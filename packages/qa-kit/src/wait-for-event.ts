import type { Event, EventName } from '@payframe/contract';
import { callApi, type PayframeApiOptions } from './api.ts';

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
 * Resolves with the newest event of this name about this charge, polling the events list until
 * one exists; rejects after `timeoutMs`. For tests that must not move on before Payframe has
 * recorded a change. Takes the same `{ apiKey, apiBase }` as `expireCharge`
 * (`waitForEvent({ name, charge, apiKey, apiBase })`), or an @payframe/node client as its first argument.
 * It reads one charge's events only, so it is safe in parallel workers on one account.
 */
export function waitForEvent(options: WaitForEventOptions & PayframeApiOptions): Promise<Event>;
export function waitForEvent(payframe: EventsClient, options: WaitForEventOptions): Promise<Event>;
export async function waitForEvent(first: EventsClient | (WaitForEventOptions & PayframeApiOptions), second?: WaitForEventOptions): Promise<Event> {
  const options = 'events' in first ? second : first;
  if (!options) throw new Error('waitForEvent: needs { name, charge }');
  const { name, charge, timeoutMs = 15_000, intervalMs = 250 } = options;
  const deadline = Date.now() + timeoutMs;
  const none = () => new Error(`waitForEvent: no ${name} event for charge ${charge} within ${timeoutMs} ms`);
  const list =
    'events' in first
      ? async () => (await byDeadline(first.events.list({ name, charge, limit: 1 }), deadline, none)).data
      : async () => {
          const query = new URLSearchParams({ name, charge, limit: '1' });
          // Here timeoutMs is the whole wait; no one request may outlast it.
          const api = { apiKey: first.apiKey, apiBase: first.apiBase, timeoutMs: Math.max(1, Math.min(10_000, deadline - Date.now())) };
          return (await callApi<{ data: Event[] }>(`waitForEvent(${name})`, api, 'GET', `/v2/events?${query}`)).data;
        };
  for (;;) {
    // A request cut short by the deadline means the same as an empty answer at it.
    const [event] = await list().catch((error: unknown) => {
      throw Date.now() >= deadline ? none() : error;
    });
    if (event) return event;
    if (Date.now() >= deadline) throw none();
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, deadline - Date.now())));
  }
}

/**
 * A client's request raced against the deadline: a client has its own timeouts and retries (the
 * SDK's add up to a minute and a half), and nothing here can cut its request short, so an answer
 * that comes after the deadline is dropped and the wait fails at the deadline.
 */
function byDeadline<T>(request: PromiseLike<T>, deadline: number, late: () => Error): Promise<T> {
  const answered = Promise.resolve(request);
  answered.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(late()), Math.max(0, deadline - Date.now()));
  });
  return Promise.race([answered, expired]).finally(() => clearTimeout(timer));
}
