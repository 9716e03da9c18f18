import type { Event, ListEventsParams, ResendEventParams, WebhookDeliveryList } from '@payframe/contract';
import { type HttpClient, type RequestOptions, segment } from '../http.ts';
import { ListPromise } from '../list.ts';

export class Events {
  readonly #http: HttpClient;

  constructor(http: HttpClient) {
    this.#http = http;
  }

  retrieve(id: string): Promise<Event> {
    return this.#http.request({ method: 'GET', path: `/events/${segment(id)}` });
  }

  /** Newest first; `await` for one page or `for await` over every event. */
  list(params: ListEventsParams = {}): ListPromise<Event, ListEventsParams> {
    return new ListPromise((query) => this.#http.request({ method: 'GET', path: '/events', query }), params);
  }

  /** The event's deliveries to the account's webhook endpoints. */
  deliveries(id: string): Promise<WebhookDeliveryList> {
    return this.#http.request({ method: 'GET', path: `/events/${segment(id)}/deliveries` });
  }

  /** Queues a new delivery now, to `endpoint` or to every endpoint that takes the event; answers the queued deliveries. */
  resend(id: string, params: ResendEventParams = {}, options?: RequestOptions): Promise<WebhookDeliveryList> {
    return this.#http.request({ method: 'POST', path: `/events/resend/${segment(id)}`, body: params, options });
  }
}
