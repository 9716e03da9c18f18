import type { CaptureChargeParams, Charge, CreateChargeParams, ListChargesParams, UpdateChargeParams } from '@payframe/contract';
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

  /** Merges `metadata` into the charge's (an empty value deletes its key); records `charge.updated`. */
  update(id: string, params: UpdateChargeParams, options?: RequestOptions): Promise<Charge> {
    return this.#http.request({ method: 'POST', path: `/charges/${segment(id)}`, body: params, options });
  }

  /** Captures the whole charge, or with `amount` part of it (the rest is released, not refunded). */
  capture(id: string, params: CaptureChargeParams = {}, options?: RequestOptions): Promise<Charge> {
    return this.#http.request({ method: 'POST', path: `/charges/capture/${segment(id)}`, body: params, options });
  }

  cancel(id: string, options?: RequestOptions): Promise<Charge> {
    return this.#http.request({ method: 'POST', path: `/charges/cancel/${segment(id)}`, options });
  }

  /** Newest first; `await` it for one page, or `for await` over it for every charge. */
  list(params: ListChargesParams = {}): ListPromise<Charge, ListChargesParams> {
    return new ListPromise((query) => this.#http.request({ method: 'GET', path: '/charges', query }), params);
  }
}
