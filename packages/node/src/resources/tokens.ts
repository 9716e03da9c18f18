import type { CreateTokenParams, Token } from '@payframe/contract';
import { type HttpClient, type RequestOptions, segment } from '../http.ts';

export class Tokens {
  readonly #http: HttpClient;

  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Tokens are usually made in the shopper's browser by the widget; a secret key must also send `shopper.ip`. */
  create(params: CreateTokenParams, options?: RequestOptions): Promise<Token> {
    return this.#http.request({ method: 'POST', path: '/tokens', body: params, options });
  }

  retrieve(id: string): Promise<Token> {
    return this.#http.request({ method: 'GET', path: `/tokens/${segment(id)}` });
  }
}
