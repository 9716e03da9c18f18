import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';

/** Flag names as the CLI spells them, mapped to the config keys they set. */
const FLAG_TO_CONFIG = {
  port: 'port',
  host: 'host',
  'data-dir': 'dataDir',
  'database-url': 'databaseUrl',
  'public-url': 'publicUrl',
  'trust-proxy': 'trustProxy',
  'live-acquirer': 'liveAcquirer',
  'tls-cert': 'tlsCert',
  'tls-key': 'tlsKey',
  'log-level': 'logLevel',
} as const satisfies Record<string, keyof Config>;

type ExtraOptions = Record<string, { type: 'string' | 'boolean' }>;

export function parseFlags<E extends ExtraOptions>(args: string[], extra: E) {
  const options = {
    ...Object.fromEntries(Object.keys(FLAG_TO_CONFIG).map((flag) => [flag, { type: 'string' as const }])),
    ...extra,
  };
  const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const config: Partial<Record<keyof Config, string>> = {};
  for (const [flag, key] of Object.entries(FLAG_TO_CONFIG)) {
    const value = values[flag];
    if (typeof value === 'string') config[key] = value;
  }
  return { config, values, positionals: parsed.positionals };
}
