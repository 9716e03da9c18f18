import type { Charge, CreateChargeParams, ListChargesParams } from '@payframe/contract';
import { type HttpClient, type RequestOptions, segment } from '../http.ts';
import { ListPromise } from '../list.ts';

export class Charges {
  readonly #http: HttpClient;

  constructor(http: HttpClient) {
    this.#http = http;
  }

  create(params: CreateChargeParams, options?: RequestOptions): Promise<Charge> {
    return this.#http.request({ method: 'POST', path: '/charges', body: params, options });
  }

  retrieve(id: string): Promise<Charge> {
    return this.#http.request({ method: 'GET', path: `/charges/${segment(id)}` });
  }

  capture(id: string, options?: RequestOptions): Promise<Charge> {
    return this.#http.request({ method: 'POST', path: `/charges/capture/${segment(id)}`, options });
  }

  cancel(id: string, options?: RequestOptions): Promise<Charge> {
    return this.#http.request({ method: 'POST', path: `/charges/cancel/${segment(id)}`, options });
  }

  /** Newest first; `await` it for one page, or `for await` over it for every charge. */
  list(params: ListChargesParams = {}): ListPromise<Charge, ListChargesParams> {
    return new ListPromise((query) => this.#http.request({ method: 'GET', path: '/charges', query }), params);
  }
}
