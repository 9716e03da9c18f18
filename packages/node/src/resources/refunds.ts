import type { CreateRefundParams, ListRefundsParams, Refund } from '@payframe/contract';
import { type HttpClient, type RequestOptions, segment } from '../http.ts';
import { ListPromise } from '../list.ts';

export class Refunds {
  readonly #http: HttpClient;

  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Refunds `amount` of the charge, or without it the whole remaining balance. */
  create(chargeId: string, params: CreateRefundParams = {}, options?: RequestOptions): Promise<Refund> {
    return this.#http.request({ method: 'POST', path: `/charges/refund/${segment(chargeId)}`, body: params, options });
  }

  retrieve(id: string): Promise<Refund> {
    return this.#http.request({ method: 'GET', path: `/charges/refund/${segment(id)}` });
  }

  /** Newest first, of one charge with `charge`; `await` for one page or `for await` over every refund. */
  list(params: ListRefundsParams = {}): ListPromise<Refund, ListRefundsParams> {
    return new ListPromise((query) => this.#http.request({ method: 'GET', path: '/refunds', query }), params);
  }
}
