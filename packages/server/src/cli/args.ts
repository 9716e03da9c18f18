import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { Config } from '../config.ts';

/** Flag names as the CLI spells them, mapped to the config keys they set. */
export const FLAG_TO_CONFIG = {
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
  'metrics-port': 'metricsPort',
  'request-log': 'requestLog',
} as const satisfies Record<string, keyof Config>;

type ExtraOptions = Record<string, { type: 'string' | 'boolean' }>;

/**
 * A command line the command cannot run as given: unknown or missing flags, too many arguments, a
 * setting it cannot take. `payframe` exits 2 for these and 1 when a command that was understood fails.
 */
export class UsageError extends Error {}

/** parseArgs's own errors (an unknown flag, a flag without its value) are usage errors too. */
export function parsedArgs<const T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    if ((error as { code?: unknown }).code?.toString().startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
}

/** `command` takes at most `positionals` arguments besides its flags (an id or an e-mail); more is an error, not ignored. */
export function parseFlags<E extends ExtraOptions>(args: string[], extra: E, command: { name: string; positionals: number }) {
  const options = {
    ...Object.fromEntries(Object.keys(FLAG_TO_CONFIG).map((flag) => [flag, { type: 'string' as const }])),
    ...extra,
  };
  const parsed = parsedArgs({ args, options, allowPositionals: true, strict: true });
  if (parsed.positionals.length > command.positionals) {
    // Not repeated: a stray argument may be a key pasted in the wrong place.
    throw new UsageError(
      `${command.name} takes ${command.positionals === 0 ? 'no argument' : `${command.positionals} argument`} besides its flags; got ${parsed.positionals.length}`,
    );
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const config: Partial<Record<keyof Config, string>> = {};
  for (const [flag, key] of Object.entries(FLAG_TO_CONFIG)) {
    const value = values[flag];
    if (typeof value === 'string') config[key] = value;
  }
  return { config, values, positionals: parsed.positionals };
}

/** A flag's text, trimmed; a missing or blank one stops the command with `missing`. */
export function requiredText(value: string | boolean | undefined, missing: string): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!text) throw new UsageError(missing);
  return text;
}
