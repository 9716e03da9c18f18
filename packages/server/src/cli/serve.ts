import { loadConfig } from '../config.ts';
import { startServer } from '../main.ts';
import { demoAccountBanner, demoAccountKeys } from './demo-account.ts';
import { parseFlags } from './args.ts';

export async function serveCommand(args: string[]): Promise<void> {
  const { config: flags, values } = parseFlags(args, { demo: { type: 'boolean' } });
  const config = loadConfig(flags);
  const demoKeys = values.demo ? await demoAccountKeys(config) : undefined;
  const server = await startServer(config);
  if (demoKeys) console.log(demoAccountBanner(demoKeys, server.url));

  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
