import type { AdvanceClockParams, AuthenticateParams, Charge, TestClock, Token } from '@payframe/contract';
import { type HttpClient, type RequestOptions, segment } from '../http.ts';

/**
 * Test mode only: the account's clock, 3-D Secure settled without a browser, and one charge or
 * token expired now. The clock moves every test object of the account: it is for tests that run
 * alone; tests in parallel expire their own objects with `charges.expire` / `tokens.expire`.
 */
export class TestHelpers {
  readonly #http: HttpClient;
  readonly clock: {
    retrieve(): Promise<TestClock>;
    /** Moves the account's test-mode "now" forward, e.g. past a charge's 7-day expiry. */
    advance(params: AdvanceClockParams, options?: RequestOptions): Promise<TestClock>;
  };
  readonly charges: {
    /** Expires one pending charge now, as its 7-day deadline would (`charge.expired`, webhooks); no clock moves. */
    expire(chargeId: string, options?: RequestOptions): Promise<Charge>;
  };
  readonly tokens: {
    /** Ends one unused token's 15 minutes now: charging it then fails with TOKEN_EXPIRED; no clock moves. */
    expire(tokenId: string, options?: RequestOptions): Promise<Token>;
  };

  constructor(http: HttpClient) {
    this.#http = http;
    this.clock = {
      retrieve: () => http.request({ method: 'GET', path: '/test_helpers/clock' }),
      advance: (params, options) => http.request({ method: 'POST', path: '/test_helpers/clock', body: params, options }),
    };
    this.charges = {
      expire: (chargeId, options) => http.request({ method: 'POST', path: `/test_helpers/charges/${segment(chargeId)}/expire`, options }),
    };
    this.tokens = {
      expire: (tokenId, options) => http.request({ method: 'POST', path: `/test_helpers/tokens/${segment(tokenId)}/expire`, options }),
    };
  }

  /** Completes (`success`) or fails (`failure`) the charge's 3-D Secure, as the shopper would on the hosted page. */
  authenticate(chargeId: string, params: AuthenticateParams, options?: RequestOptions): Promise<Charge> {
    return this.#http.request({ method: 'POST', path: `/test_helpers/charges/${segment(chargeId)}/authenticate`, body: params, options });
  }
}
