import type { CreatedWebhookEndpoint, CreateWebhookEndpointParams, DeletedWebhookEndpoint, ListPageParams, WebhookEndpoint } from '@payframe/contract';
import { type HttpClient, type RequestOptions, segment } from '../http.ts';
import { ListPromise } from '../list.ts';

export class WebhookEndpoints {
  readonly #http: HttpClient;

  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** The answer holds the signing `secret`; it is shown this once. */
  create(params: CreateWebhookEndpointParams, options?: RequestOptions): Promise<CreatedWebhookEndpoint> {
    return this.#http.request({ method: 'POST', path: '/webhook_endpoints', body: params, options });
  }

  retrieve(id: string): Promise<WebhookEndpoint> {
    return this.#http.request({ method: 'GET', path: `/webhook_endpoints/${segment(id)}` });
  }

  list(params: ListPageParams = {}): ListPromise<WebhookEndpoint, ListPageParams> {
    return new ListPromise((query) => this.#http.request({ method: 'GET', path: '/webhook_endpoints', query }), params);
  }

  del(id: string): Promise<DeletedWebhookEndpoint> {
    return this.#http.request({ method: 'DELETE', path: `/webhook_endpoints/${segment(id)}` });
  }
}
