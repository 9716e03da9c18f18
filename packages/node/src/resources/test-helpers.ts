import type { AdvanceClockParams, AuthenticateParams, Charge, TestClock } from '@payframe/contract';
import { type HttpClient, type RequestOptions, segment } from '../http.ts';

/** Test mode only: the account's clock, and 3-D Secure settled without a browser. */
export class TestHelpers {
  readonly #http: HttpClient;
  readonly clock: {
    retrieve(): Promise<TestClock>;
    /** Moves the account's test-mode "now" forward, e.g. past a charge's 7-day expiry. */
    advance(params: AdvanceClockParams, options?: RequestOptions): Promise<TestClock>;
  };

  constructor(http: HttpClient) {
    this.#http = http;
    this.clock = {
      retrieve: () => http.request({ method: 'GET', path: '/test_helpers/clock' }),
      advance: (params, options) => http.request({ method: 'POST', path: '/test_helpers/clock', body: params, options }),
    };
  }

  /** Completes (`success`) or fails (`failure`) the charge's 3-D Secure, as the shopper would on the hosted page. */
  authenticate(chargeId: string, params: AuthenticateParams, options?: RequestOptions): Promise<Charge> {
    return this.#http.request({ method: 'POST', path: `/test_helpers/charges/${segment(chargeId)}/authenticate`, body: params, options });
  }
}
