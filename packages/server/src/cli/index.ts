import { ENVIRONMENT, InvalidSettingError } from '../config.ts';
import { FLAG_TO_CONFIG, UsageError } from './args.ts';

const USAGE = `Usage:
  payframe serve [--port N] [--host H] [--data-dir DIR | --database-url URL] [--public-url URL]
                 [--trust-proxy CIDR,...] [--live-acquirer simulator] [--tls-cert FILE --tls-key FILE]
                 [--log-level LEVEL] [--metrics-port N] [--request-log on|off] [--demo]
  payframe keys create --account NAME --mode test|live [--json] [--data-dir DIR | --database-url URL]
  payframe keys list [--account NAME] [--json] [--data-dir DIR | --database-url URL]
  payframe keys revoke KEY_OR_ID [--json] [--data-dir DIR | --database-url URL]
  payframe listen --forward-to URL --api-key sk_test_... [--api-base URL]
  payframe seed --account NAME --charges N [--json] [--data-dir DIR | --database-url URL]
  payframe trigger EVENT --api-key sk_test_... [--api-base URL]
  payframe users create --account NAME --email E --role admin|viewer [--password-stdin] [--json]
                        [--data-dir DIR | --database-url URL]
  payframe users list [--account NAME] [--json] [--data-dir DIR | --database-url URL]
  payframe users remove EMAIL [--json] [--data-dir DIR | --database-url URL]
  payframe backup --data-dir DIR --to FILE
  payframe restore --from FILE --data-dir NEW [--master-key-file FILE]

Every setting of serve is also read from an environment variable: payframe serve --help lists them.`;

/** serve's settings as environment variables, each with the flag that wins over it where there is one. */
function environmentLines(): string[] {
  const flagOf = new Map<string, string>(Object.entries(FLAG_TO_CONFIG).map(([flag, key]) => [key, flag]));
  const names = Object.entries(ENVIRONMENT).map(([key, variable]) => (flagOf.has(key) ? `${variable} (--${flagOf.get(key)})` : variable));
  const lines: string[] = [];
  for (const name of names) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + name.length + 2 <= 100) lines[lines.length - 1] = `${last}, ${name}`;
    else lines.push(`  ${name}`);
  }
  return ['', 'Environment (a flag wins over its variable):', ...lines];
}

type Command = (args: string[]) => Promise<void>;

/**
 * Each command's module is evaluated only when that command runs: `payframe keys` or `users` never
 * evaluates the HTTP server's modules (fastify, the routes, the webhook client), and the tests run
 * such commands by the hundred.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.ts')).serveCommand,
  keys: async () => (await import('./keys.ts')).keysCommand,
  listen: async () => (await import('./listen.ts')).listenCommand,
  seed: async () => (await import('./seed.ts')).seedCommand,
  trigger: async () => (await import('./trigger.ts')).triggerCommand,
  users: async () => (await import('./users.ts')).usersCommand,
  backup: async () => (await import('./backup.ts')).backupCommand,
  restore: async () => (await import('./backup.ts')).restoreCommand,
};

/** The usage lines of one command (with their continuation lines), for `payframe COMMAND --help`. */
function usageOf(command: string): string {
  const lines: string[] = [];
  let inCommand = false;
  for (const line of USAGE.split('\n').slice(1)) {
    if (line.startsWith('  payframe ')) inCommand = line.startsWith(`  payframe ${command} `);
    else if (!line.startsWith('   ')) inCommand = false;
    if (inCommand) lines.push(line);
  }
  const environment = command === 'serve' ? environmentLines() : [];
  return ['Usage:', ...lines, ...environment].join('\n');
}

/** Runs one `payframe` command line; bin/payframe.js calls it with the process's arguments. */
export async function main(args: string[]): Promise<void> {
  const [command = '', ...rest] = args;
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  try {
    if (load && (rest.includes('--help') || rest.includes('-h'))) console.log(usageOf(command));
    else if (load) await (await load())(rest);
    else {
      const asked = command === '' || command === 'help' || command === '--help' || command === '-h';
      (asked ? console.log : console.error)(USAGE);
      process.exitCode = asked ? 0 : 2;
    }
  } catch (error) {
    console.error(`payframe: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = error instanceof UsageError || error instanceof InvalidSettingError ? 2 : 1;
  }
}
