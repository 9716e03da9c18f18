import type {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointParams,
  DeletedWebhookEndpoint,
  ListPageParams,
  UpdateWebhookEndpointParams,
  WebhookEndpoint,
} from '@payframe/contract';
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

  /** Changes what `params` names (url, events, description, disabled); a disabled endpoint receives no new deliveries. */
  update(id: string, params: UpdateWebhookEndpointParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.#http.request({ method: 'POST', path: `/webhook_endpoints/${segment(id)}`, body: params, options });
  }

  list(params: ListPageParams = {}): ListPromise<WebhookEndpoint, ListPageParams> {
    return new ListPromise((query) => this.#http.request({ method: 'GET', path: '/webhook_endpoints', query }), params);
  }

  delete(id: string): Promise<DeletedWebhookEndpoint> {
    return this.#http.request({ method: 'DELETE', path: `/webhook_endpoints/${segment(id)}` });
  }

  /** `delete` under the name Stripe's SDK gives it, for code written against that. */
  del(id: string): Promise<DeletedWebhookEndpoint> {
    return this.delete(id);
  }
}
