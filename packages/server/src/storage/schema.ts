import type { Authorization, Brand, ChargeReason, ChargeStatus, DashboardRole, EventName, Funding, Mode, ThreeDSStatus, TransStatus } from '@payframe/contract';
import type { ThreeDSScenario } from '@payframe/contract/test-cards';
import type { Generated } from 'kysely';

/** Times are integer epoch milliseconds; money is integer minor units. */
export interface AccountsTable {
  id: string;
  name: string;
  created_at: number;
  /** Seconds the account's test-mode clock runs ahead of the real one. */
  test_clock_offset: Generated<number>;
  /** The name shoppers see on the 3-D Secure page, set from the dashboard; null shows `name`. */
  display_name: Generated<string | null>;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  kind: 'secret' | 'publishable';
  mode: Mode;
  /** SHA-256 of the whole key: keys are high-entropy, so a fast hash is enough. */
  hash: string;
  /** The key's prefix and last characters, for listing without revealing it. */
  hint: string;
  created_at: number;
  revoked_at: number | null;
  /** Set by a request made with the key, at most once a minute (services/api-keys.ts). */
  last_used_at: number | null;
}

export interface TokensTable {
  id: string;
  account_id: string;
  mode: Mode;
  created_at: number;
  used_at: number | null;
  brand: Brand;
  funding: Funding;
  country: string;
  bank: string;
  authorization: Authorization;
  bin: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  fingerprint: string;
  /** AES-256-GCM of the number and CVC; erased when the token is used. */
  card_secret: string | null;
  name: string;
  address_line1: string | null;
  address_line2: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zip: string | null;
  address_country: string | null;
  shopper_ip: string;
  shopper_session_id: string;
  shopper_email: string;
}

export interface ChargesTable {
  id: string;
  account_id: string;
  mode: Mode;
  token_id: string;
  amount: number;
  /** 0 until captured; at most `amount` (the rest was released). */
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  description: string;
  txn_reference: string | null;
  return_url: string;
  status: ChargeStatus;
  threeds_status: ThreeDSStatus;
  reason: ChargeReason | null;
  fees: number | null;
  created_at: number;
  updated_at: number;
  /** Bumped by every write: conditional updates on it make concurrent moves safe. */
  version: number;
  /** The token's shopper e-mail, lower-cased, and last 4 digits: copied here so list filters have indexes. */
  email: string;
  last4: string;
  /** How the issuer runs 3-D Secure; null when the card needs none (or for charges older than scenarios: the challenge). */
  threeds_scenario: ThreeDSScenario | null;
  /** The issuer's answer once 3-D Secure is settled. */
  threeds_trans_status: TransStatus | null;
  /** Wrong one-time codes entered so far (the `otp` scenario). */
  threeds_code_failures: number;
  /** The merchant's key-value pairs as JSON text, `{}` when none. */
  metadata: string;
}

/** A charge whose shopper the bank-app card's waiting page has sent back to the merchant (its one 303). */
export interface ThreeDSReturnsTable {
  charge_id: string;
  /** Real epoch ms. */
  returned_at: number;
}

export interface RefundsTable {
  id: string;
  account_id: string;
  mode: Mode;
  charge_id: string;
  amount: number;
  currency: string;
  fee_refunded: number;
  created_at: number;
  /** The merchant's key-value pairs as JSON text, `{}` when none. */
  metadata: string;
}

export interface IdempotencyKeysTable {
  account_id: string;
  mode: Mode;
  /** The kind of API key that sent the request: each kind has its own keys. */
  key_kind: 'secret' | 'publishable';
  key: string;
  /** HMAC of method, path and canonical parameters, keyed by a key derived from the master key. */
  request_hash: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  /** The response as sealed by security/vault.ts, bound to the record's key. */
  response_body: string | null;
  created_at: number;
  locked_at: number;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  window_start: number;
}

/** One row per background job: the conditional update of `next_run_at` decides which instance runs it. */
export interface BackgroundJobsTable {
  name: string;
  next_run_at: number;
  /** The instance that last took the job, for operators reading the table. */
  last_runner: string | null;
}

/** One change of a charge, written in the change's transaction (the transactional outbox). */
export interface EventsTable {
  /** Insertion order (on PostgreSQL not quite commit order: see `txid`); lists break ties with it. */
  seq: Generated<number>;
  id: string;
  account_id: string;
  mode: Mode;
  name: EventName;
  charge_id: string;
  /** On the charge's clock: the account's test clock in test mode. */
  created_at: number;
  /** The event's JSON exactly as the API serves it: retrieve, lists, the stream and deliveries send these bytes. */
  body: string;
  /** The inserting transaction's id on PostgreSQL, 0 on SQLite: the stream reads by (txid, seq). */
  txid: Generated<number>;
}

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  mode: Mode;
  url: string;
  /** JSON array of the event names the endpoint takes. */
  events: string;
  description: string | null;
  /** The `whsec_…` signing secret, sealed with the server's vault key: it must be readable to sign. */
  secret_sealed: string;
  created_at: number;
  deleted_at: number | null;
  /** Set while the endpoint is disabled: the fan-out queues it nothing new. */
  disabled_at: number | null;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  mode: Mode;
  endpoint_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  /** Real epoch ms, never the test clock. */
  next_attempt_at: number | null;
  lease_until: number | null;
  leased_by: string | null;
  created_at: number;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt: number;
  started_at: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** A dashboard user; the e-mail is stored lower-cased, the password only as a scrypt hash. */
export interface DashboardUsersTable {
  id: string;
  account_id: string;
  email: string;
  role: DashboardRole;
  password_hash: string;
  password_salt: string;
  /** The scrypt cost the hash was made with (security/passwords.ts), so it can be raised later. */
  password_params: string;
  created_at: number;
}

export interface DashboardSessionsTable {
  /** SHA-256 of the cookie's token: the token itself is never stored. */
  id: string;
  user_id: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
}

/** One row per failed sign-in, under `email:<address>` and `ip:<address>`. */
export interface DashboardLoginFailuresTable {
  id: string;
  key: string;
  failed_at: number;
}

/** A daily counter of the home page (domain/overview.ts); `day` is the UTC day number. */
export interface OverviewDailyTable {
  account_id: string;
  mode: Mode;
  day: number;
  metric: string;
  currency: string;
  shard: number;
  quantity: number;
  amount: number;
}

/**
 * One /v2 request of an account and mode as the request log keeps it (request-log-batch.ts), with no
 * card number or CVC in `request` or `response`.
 */
export interface RequestLogEntryRow {
  /** The request's `Request-Id`. */
  id: string;
  /** Real epoch ms when the request was received: the time in its id. */
  created_at: number;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  /** The API key that sent it; its hint is read from api_keys. */
  key_id: string | null;
  idempotency_key: string | null;
  /** `{ query, body }` as JSON text. */
  request: string;
  /** The response body as sent (JSON text), or empty. */
  response: string;
}

/** A run of an account's and mode's request log entries, kept 7 days from its last. */
export interface RequestLogBatchesTable {
  id: Generated<number>;
  account_id: string;
  mode: Mode;
  /** The first and last of its entries' `created_at`, at most RUN_SPAN_MS apart. */
  first_at: number;
  last_at: number;
  /** The bits of its entries' status classes (statusClassBit). */
  statuses: number;
  /** Its entries, as encodeEntries writes them. */
  entries: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  tokens: TokensTable;
  charges: ChargesTable;
  threeds_returns: ThreeDSReturnsTable;
  refunds: RefundsTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_limits: RateLimitsTable;
  background_jobs: BackgroundJobsTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  dashboard_users: DashboardUsersTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_login_failures: DashboardLoginFailuresTable;
  overview_daily: OverviewDailyTable;
  request_log_batches: RequestLogBatchesTable;
}
