import { loadConfig } from '../config.ts';
import { startServer } from '../main.ts';
import { parseFlags } from './args.ts';
import { demoAccountBanner, demoAccountKeys, demoDashboardUser } from './demo-account.ts';

export async function serveCommand(args: string[]): Promise<void> {
  const { config: flags, values } = parseFlags(args, { demo: { type: 'boolean' } }, { name: 'serve', positionals: 0 });
  const config = loadConfig(flags);
  const demo = values.demo ? { keys: await demoAccountKeys(config), user: await demoDashboardUser(config) } : undefined;
  const server = await startServer(config);
  if (demo) console.log(demoAccountBanner(demo.keys, demo.user, server.url));

  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
