import { loadConfig } from '../config.ts';
import { startServer } from '../main.ts';
import { demoAccountBanner } from './demo-account.ts';
import { parseFlags } from './args.ts';

export async function serveCommand(args: string[]): Promise<void> {
  const { config: flags, values } = parseFlags(args, { demo: { type: 'boolean' } });
  const config = loadConfig(flags);
  const server = await startServer(config);
  if (values.demo) console.log(await demoAccountBanner(config, server.url));

  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
