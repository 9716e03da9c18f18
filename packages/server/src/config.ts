import { z } from 'zod';
import { DEFAULT_RETRY_SCHEDULE_SECONDS, WEBHOOK_TIMEOUT_MS } from './domain/webhook-retry.ts';

/** loadConfig passes an empty value on as no value. */
const optionalText = z.string().optional();

const integer = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const PORT_ERROR = 'must be a port number from 0 to 65535';

/** Every setting, from flags or environment, parsed once. Flags win over the environment. */
export const ConfigSchema = z
  .object({
    port: z.coerce.number({ error: PORT_ERROR }).int({ error: PORT_ERROR }).min(0, { error: PORT_ERROR }).max(65_535, { error: PORT_ERROR }).default(4000),
    host: z.string().default('127.0.0.1'),
    dataDir: z.string().default('.payframe'),
    databaseUrl: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, { error: 'must be a postgres:// or postgresql:// URL' })
        .optional(),
    ),
    dbPoolSize: z.coerce.number().int().min(1).max(1_000).default(10),
    dbStatementTimeoutMs: z.coerce.number().int().min(100).default(5_000),
    dbConnectTimeoutMs: z.coerce.number().int().min(100).default(2_000),
    publicUrl: optionalText.pipe(z.url().optional()),
    /** Addresses or CIDR ranges of proxies whose X-Forwarded-* headers are believed. */
    trustProxy: optionalText.transform(
      (value) =>
        value
          ?.split(',')
          .map((entry) => entry.trim())
          .filter(Boolean) ?? [],
    ),
    liveAcquirer: optionalText.pipe(z.enum(['simulator'], { error: 'must be simulator (the only acquirer there is)' }).optional()),
    tlsCert: optionalText,
    tlsKey: optionalText,
    /** Serves GET /metrics on the API port to requests that carry it as a bearer token. */
    metricsToken: optionalText,
    /** Serves GET /metrics without a token on this port of 127.0.0.1 (0 picks a free one). */
    metricsPort: optionalText
      .transform((value) => (value === undefined ? undefined : Number(value)))
      .pipe(z.number({ error: PORT_ERROR }).int({ error: PORT_ERROR }).min(0, { error: PORT_ERROR }).max(65_535, { error: PORT_ERROR }).optional()),
    /** Base64 of 32 bytes; without it a key file in the data directory is used (made on first start). */
    masterKey: optionalText,
    feeRateBasisPoints: integer(260),
    feeFixed: integer(20),
    publishableRateLimit: integer(60),
    /** Requests a minute per secret key; 0 leaves secret keys unlimited. */
    secretRateLimit: integer(0),
    logLevel: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    /** The longest a whole request (headers and body) may take to arrive; 0 for no limit. */
    requestTimeoutMs: z.coerce.number().int().min(0).default(30_000),
    /** On SIGTERM/SIGINT, how long requests in flight may take to finish before their connections are cut. */
    shutdownGraceMs: z.coerce.number().int().min(0).default(10_000),
    /** `off` keeps no request log (docs/dashboard.md, "Request log"): for measuring what it costs. */
    requestLog: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
    /** How often the background sweeper looks for work (expired tokens' card data, old idempotency records). */
    sweepIntervalMs: z.coerce.number().int().min(50).max(60_000).default(2_000),
    /** A dashboard session ends after this long without a request (12 hours). */
    dashboardSessionIdleMs: z.coerce
      .number()
      .int()
      .min(1_000)
      .default(12 * 60 * 60_000),
    /** A dashboard session ends this long after sign-in, however busy (7 days). */
    dashboardSessionMaxMs: z.coerce
      .number()
      .int()
      .min(1_000)
      .default(7 * 24 * 60 * 60_000),
    /** Seconds to wait after each failed webhook attempt, e.g. `1,1,2`; N entries allow N + 1 attempts. */
    webhookRetrySchedule: optionalText
      .pipe(
        z
          .string()
          .regex(/^\s*\d+(\.\d+)?\s*(,\s*\d+(\.\d+)?\s*)*$/, { error: 'must be seconds, comma-separated, e.g. 1,1,2' })
          .optional(),
      )
      .transform((value) => (value === undefined ? DEFAULT_RETRY_SCHEDULE_SECONDS : value.split(',').map(Number))),
    /** How long a webhook receiver has to answer an attempt: the contract's 10 s, or less. */
    webhookTimeoutMs: z.coerce.number().int().min(100).max(WEBHOOK_TIMEOUT_MS).default(WEBHOOK_TIMEOUT_MS),
  })
  .superRefine((config, context) => {
    // One without the other would serve plain HTTP where TLS was asked for; the error names the one given.
    if ((config.tlsCert === undefined) === (config.tlsKey === undefined)) return;
    const message = 'a TLS certificate and its key go together: give both --tls-cert and --tls-key, or neither';
    context.addIssue({ code: 'custom', message, path: [config.tlsCert === undefined ? 'tlsKey' : 'tlsCert'] });
  });
export type Config = z.infer<typeof ConfigSchema>;

/** Each setting's environment variable (its flag, where `serve` has one, wins over it). */
export const ENVIRONMENT: Readonly<Record<keyof Config, string>> = {
  port: 'PORT',
  host: 'HOST',
  dataDir: 'PAYFRAME_DATA_DIR',
  databaseUrl: 'DATABASE_URL',
  dbPoolSize: 'PAYFRAME_DB_POOL_SIZE',
  dbStatementTimeoutMs: 'PAYFRAME_DB_STATEMENT_TIMEOUT_MS',
  dbConnectTimeoutMs: 'PAYFRAME_DB_CONNECT_TIMEOUT_MS',
  publicUrl: 'PAYFRAME_PUBLIC_URL',
  trustProxy: 'PAYFRAME_TRUST_PROXY',
  liveAcquirer: 'PAYFRAME_LIVE_ACQUIRER',
  tlsCert: 'PAYFRAME_TLS_CERT',
  tlsKey: 'PAYFRAME_TLS_KEY',
  metricsToken: 'PAYFRAME_METRICS_TOKEN',
  metricsPort: 'PAYFRAME_METRICS_PORT',
  masterKey: 'PAYFRAME_MASTER_KEY',
  feeRateBasisPoints: 'PAYFRAME_FEE_RATE_BPS',
  feeFixed: 'PAYFRAME_FEE_FIXED',
  publishableRateLimit: 'PAYFRAME_TOKEN_RATE_LIMIT',
  secretRateLimit: 'PAYFRAME_SECRET_KEY_RATE_LIMIT',
  logLevel: 'LOG_LEVEL',
  requestTimeoutMs: 'PAYFRAME_REQUEST_TIMEOUT_MS',
  shutdownGraceMs: 'PAYFRAME_SHUTDOWN_GRACE_MS',
  sweepIntervalMs: 'PAYFRAME_SWEEP_INTERVAL_MS',
  requestLog: 'PAYFRAME_REQUEST_LOG',
  webhookRetrySchedule: 'PAYFRAME_WEBHOOK_RETRY_SCHEDULE',
  webhookTimeoutMs: 'PAYFRAME_WEBHOOK_TIMEOUT_MS',
  dashboardSessionIdleMs: 'PAYFRAME_DASHBOARD_SESSION_IDLE_MS',
  dashboardSessionMaxMs: 'PAYFRAME_DASHBOARD_SESSION_MAX_MS',
};

/** A setting given with a value it cannot take, by flag or environment variable: the caller's mistake. */
export class InvalidSettingError extends Error {}

export function loadConfig(flags: Partial<Record<keyof Config, string>>, env: NodeJS.ProcessEnv = process.env): Config {
  // An empty value is no value: `PORT=` means the default port, not port 0 (any free one).
  const given = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value);
  const raw: Record<string, string | undefined> = {};
  for (const [name, variable] of Object.entries(ENVIRONMENT)) {
    raw[name] = given(flags[name as keyof Config]) ?? given(env[variable]);
  }
  // The two stores' flags are alternatives: `--data-dir` alone chooses the embedded store, which a
  // DATABASE_URL in the environment must not turn into PostgreSQL (flags win over the environment).
  if (given(flags.dataDir) !== undefined && given(flags.databaseUrl) === undefined) raw.databaseUrl = undefined;
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? '') as keyof Config;
    // Named as it was given: the flag (serve's flags are the settings' names in kebab case) or the variable.
    const setting = given(flags[name]) !== undefined ? `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}` : ENVIRONMENT[name];
    throw new InvalidSettingError(`Invalid ${setting}: ${issue?.message}`);
  }
  return parsed.data;
}
