import { type ClientOptions, HttpClient } from './http.ts';
import { Charges } from './resources/charges.ts';
import { Events } from './resources/events.ts';
import { Refunds } from './resources/refunds.ts';
import { TestHelpers } from './resources/test-helpers.ts';
import { Tokens } from './resources/tokens.ts';
import { WebhookEndpoints } from './resources/webhook-endpoints.ts';
import { webhooks } from './webhooks.ts';

/** The Payframe API, with a secret key: `new Payframe(process.env.PAYFRAME_SECRET_KEY, { apiBase })`. */
export class Payframe {
  /** Webhook verification needs no client: `Payframe.webhooks.constructEvent(rawBody, headers, secret)`. */
  static readonly webhooks = webhooks;
  readonly webhooks = webhooks;

  readonly tokens: Tokens;
  readonly charges: Charges;
  readonly refunds: Refunds;
  readonly events: Events;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly testHelpers: TestHelpers;

  constructor(secretKey: string, options: ClientOptions) {
    const http = new HttpClient(secretKey, options);
    this.tokens = new Tokens(http);
    this.charges = new Charges(http);
    this.refunds = new Refunds(http);
    this.events = new Events(http);
    this.webhookEndpoints = new WebhookEndpoints(http);
    this.testHelpers = new TestHelpers(http);
  }
}
