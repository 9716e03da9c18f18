/**
 * `npm start`: the Payframe API (`payframe serve --demo`, embedded database) and the demo shop,
 * in one command. It starts the API, waits until it prints its demo-account banner (the demo keys
 * are on disk by then), reads DATA_DIR/demo-keys.json, starts the shop and prints both URLs.
 * SIGINT/SIGTERM stop both; if the API stops, the shop stops too.
 *
 *   node --import tsx packages/demo-shop/src/start.ts [--shop-port N] [any `payframe serve` flag]
 *
 * Environment: SHOP_PORT (default 4001), SHOP_PUBLIC_URL, and the server's own (PORT, HOST,
 * PAYFRAME_DATA_DIR, PAYFRAME_PUBLIC_URL…), which the API process inherits.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { demoBannerUrl, type ServerProcess, spawnServe } from '@payframe/server/process';
import { threeDSDisplayFrom } from './context.ts';
import { type RunningShop, startShop } from './server.ts';

type LauncherArgs = { shopPort: number; host: string; dataDir: string; publicApiUrl: string | undefined; serveArgs: string[] };

/** `--shop-port` is the launcher's own; every other flag goes to `payframe serve`, which the launcher reads too. */
function parseLauncherArgs(argv: string[], env: NodeJS.ProcessEnv): LauncherArgs {
  const serveArgs: string[] = [];
  const seen: Record<string, string> = {};
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const takesValue = flag.startsWith('--') && flag !== '--demo' && inline === undefined;
    const value = inline ?? (takesValue ? argv[index + 1] : undefined);
    if (takesValue) index++;
    if (value !== undefined) seen[flag] = value;
    if (flag !== '--shop-port') serveArgs.push(...(inline !== undefined ? [arg] : value !== undefined ? [flag, value] : [flag]));
  }
  const shopPort = Number(seen['--shop-port'] ?? env.SHOP_PORT ?? 4001);
  if (!Number.isInteger(shopPort) || shopPort < 0 || shopPort > 65_535) throw new Error('--shop-port must be a port number');
  return {
    shopPort,
    host: seen['--host'] ?? env.HOST ?? '127.0.0.1',
    dataDir: seen['--data-dir'] ?? env.PAYFRAME_DATA_DIR ?? '.payframe',
    publicApiUrl: seen['--public-url'] ?? env.PAYFRAME_PUBLIC_URL,
    serveArgs,
  };
}

async function main(): Promise<void> {
  const args = parseLauncherArgs(process.argv.slice(2), process.env);
  // Ready once `serve --demo` has printed its banner whole: the demo keys are on disk by then.
  const booting = new AbortController();
  const started = spawnServe({
    args: ['--demo', ...args.serveArgs],
    configuredPort: true,
    ready: demoBannerUrl,
    echo: true,
    maxOutputChars: 64_000,
    signal: booting.signal,
  });
  let api: ServerProcess | undefined;
  let shop: RunningShop | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    // Still booting: the abort stops it. Aborting later would signal it twice, cutting its graceful stop short.
    if (!api) booting.abort();
    await shop?.close();
    await (await started.catch(() => undefined))?.stop();
    process.exit(code);
  };
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));

  api = await started.catch((error: unknown) => {
    if (stopping) return undefined;
    throw error;
  });
  if (!api) return;
  const running = api;
  // Never leave the API running behind a launcher that died.
  process.once('exit', () => void running.stop());

  const apiUrl = api.url;
  void api.exited.then(({ code, signal }) => {
    if (stopping) return;
    console.error(`payframe serve stopped (${signal ?? code}); stopping the demo shop`);
    void stop(code || 1);
  });
  const keys = JSON.parse(await readFile(join(args.dataDir, 'demo-keys.json'), 'utf8')) as { secretKey: string; publishableKey: string };
  shop = await startShop({
    port: args.shopPort,
    host: args.host,
    apiUrl,
    publicApiUrl: args.publicApiUrl,
    secretKey: keys.secretKey,
    publishableKey: keys.publishableKey,
    dataDir: join(args.dataDir, 'demo-shop'),
    publicUrl: process.env.SHOP_PUBLIC_URL || undefined,
    threeDSDisplay: threeDSDisplayFrom(process.env),
  });
  console.log(`Demo shop is running at ${shop.url}  (Payframe API: ${args.publicApiUrl ?? apiUrl})`);
  console.log(`  Orders: ${shop.url}/orders   Test cards: docs/api.md#test-cards   Stop: Ctrl-C\n`);
}

main().catch((error: unknown) => {
  console.error(`demo shop: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
