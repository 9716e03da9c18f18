import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { webhookLeaseMs } from './domain/webhook-retry.ts';

const URL = 'postgres://127.0.0.1:5432/payframe';

describe('loadConfig: the store', () => {
  it('takes --data-dir alone as the embedded store, whatever DATABASE_URL the environment holds', () => {
    const config = loadConfig({ dataDir: '/srv/embedded' }, { DATABASE_URL: URL, PAYFRAME_DATA_DIR: '/srv/env' });
    expect(config).toMatchObject({ dataDir: '/srv/embedded', databaseUrl: undefined });
  });

  it('takes PostgreSQL from the environment when no store flag says otherwise', () => {
    expect(loadConfig({}, { DATABASE_URL: URL, PAYFRAME_DATA_DIR: '/srv/env' })).toMatchObject({ dataDir: '/srv/env', databaseUrl: URL });
    expect(loadConfig({ databaseUrl: URL }, { PAYFRAME_DATA_DIR: '/srv/env' })).toMatchObject({ dataDir: '/srv/env', databaseUrl: URL });
  });

  it('keeps both flags together: PostgreSQL, with the master key file in the data directory', () => {
    expect(loadConfig({ dataDir: '/srv/keys', databaseUrl: URL }, {})).toMatchObject({ dataDir: '/srv/keys', databaseUrl: URL });
  });

  it('lets a flag win over its own variable', () => {
    expect(loadConfig({ port: '5000' }, { PORT: '6000' }).port).toBe(5000);
  });
});

describe('loadConfig: empty values', () => {
  it('takes an empty variable or flag as unset: the default, not port 0, an empty host or directory', () => {
    expect(loadConfig({}, { PORT: '', HOST: ' ', PAYFRAME_DATA_DIR: '' })).toMatchObject({ port: 4000, host: '127.0.0.1', dataDir: '.payframe' });
    expect(loadConfig({ port: '', host: '' }, { PORT: '5000' })).toMatchObject({ port: 5000, host: '127.0.0.1' });
  });
});

describe('loadConfig: TLS', () => {
  it('refuses a certificate without its key, and a key without its certificate', () => {
    expect(() => loadConfig({ tlsCert: '/etc/payframe/cert.pem' }, {})).toThrow('give both --tls-cert and --tls-key');
    expect(() => loadConfig({}, { PAYFRAME_TLS_KEY: '/etc/payframe/key.pem' })).toThrow('give both --tls-cert and --tls-key');
    expect(loadConfig({ tlsCert: 'cert.pem', tlsKey: 'key.pem' }, {})).toMatchObject({ tlsCert: 'cert.pem', tlsKey: 'key.pem' });
  });
});

describe('loadConfig: errors', () => {
  it('names a bad setting as it was given: the flag, or the environment variable', () => {
    expect(() => loadConfig({ liveAcquirer: 'real' }, {})).toThrow(/^Invalid --live-acquirer: /);
    expect(() => loadConfig({}, { PAYFRAME_LIVE_ACQUIRER: 'real' })).toThrow(/^Invalid PAYFRAME_LIVE_ACQUIRER: /);
    expect(() => loadConfig({ databaseUrl: 'mysql://db' }, {})).toThrow('Invalid --database-url: must be a postgres:// or postgresql:// URL');
  });
});

describe('loadConfig: the webhook attempt timeout', () => {
  it('is the 10 s of the webhooks contract, with a 20 s lease, unless shortened; it is never lengthened', () => {
    const timeoutMs = loadConfig({}, {}).webhookTimeoutMs;
    expect(timeoutMs).toBe(10_000);
    expect(webhookLeaseMs(timeoutMs)).toBe(20_000);
    expect(loadConfig({}, { PAYFRAME_WEBHOOK_TIMEOUT_MS: '2000' }).webhookTimeoutMs).toBe(2_000);
    expect(() => loadConfig({}, { PAYFRAME_WEBHOOK_TIMEOUT_MS: '10001' })).toThrow(/^Invalid PAYFRAME_WEBHOOK_TIMEOUT_MS: /);
  });
});
