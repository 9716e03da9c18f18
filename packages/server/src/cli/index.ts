import { keysCommand } from './keys.ts';
import { seedCommand } from './seed.ts';
import { serveCommand } from './serve.ts';

const USAGE = `Usage:
  payframe serve [--port N] [--host H] [--data-dir DIR | --database-url URL] [--public-url URL]
                 [--trust-proxy CIDR,...] [--live-acquirer simulator] [--tls-cert FILE --tls-key FILE]
                 [--log-level LEVEL] [--demo]
  payframe keys create --account NAME --mode test|live [--json] [--data-dir DIR | --database-url URL]
  payframe keys list [--account NAME] [--json] [--data-dir DIR | --database-url URL]
  payframe keys revoke KEY_OR_ID [--json] [--data-dir DIR | --database-url URL]
  payframe seed --account NAME --charges N [--json] [--data-dir DIR | --database-url URL]

Every flag of serve has an environment variable: see docs/operations.md.`;

const [command, ...rest] = process.argv.slice(2);

try {
  if (command === 'serve') await serveCommand(rest);
  else if (command === 'keys') await keysCommand(rest);
  else if (command === 'seed') await seedCommand(rest);
  else {
    const asked = command === undefined || command === 'help' || command === '--help' || command === '-h';
    (asked ? console.log : console.error)(USAGE);
    process.exitCode = asked ? 0 : 2;
  }
} catch (error) {
  console.error(`payframe: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
