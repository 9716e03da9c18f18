import { join } from 'node:path';
import { simulatorAcquirer } from '../acquirer/simulator.ts';
import { loadConfig } from '../config.ts';
import { loadServerSecrets } from '../security/secrets.ts';
import type { ServiceDeps } from '../services/context.ts';
import { seedCharges } from '../services/seed.ts';
import { ascendingIds } from '../services/seed-ids.ts';
import { parseFlags, requiredText, UsageError } from './args.ts';
import { withStore } from './open-store.ts';

const SEED_STATEMENT_TIMEOUT_MS = 60 * 60 * 1000;
const OPTIONS = { account: { type: 'string' }, charges: { type: 'string' }, json: { type: 'boolean' } } as const;

/** `payframe seed`: fills a test-mode account with realistic charges, for benchmarks and demonstrations. */
export async function seedCommand(args: string[]): Promise<void> {
  const { config: flags, values } = parseFlags(args, OPTIONS, { name: 'seed', positionals: 0 });
  // Statements of thousands of rows, and the final VACUUM, outlast a request's limit on PostgreSQL.
  const configured = loadConfig(flags);
  const config = { ...configured, dbStatementTimeoutMs: Math.max(configured.dbStatementTimeoutMs, SEED_STATEMENT_TIMEOUT_MS) };
  const account = requiredText(values.account, 'seed needs --account NAME');
  const count = Number(values.charges);
  if (!/^\d+$/.test(String(values.charges)) || !Number.isSafeInteger(count) || count < 1) throw new UsageError('seed needs --charges N (a positive integer)');
  const deps: ServiceDeps = {
    secrets: loadServerSecrets({ masterKey: config.masterKey, keyFile: join(config.dataDir, 'master.key') }),
    liveAcquirer: null,
    testAcquirer: simulatorAcquirer,
    fees: { rateBasisPoints: config.feeRateBasisPoints, fixed: config.feeFixed },
    // Events carry each charge's 3-D Secure link as the server would show it.
    threeDSUrl: () => `${(config.publicUrl ?? `http://${config.host}:${config.port}`).replace(/\/$/, '')}/3d-secure`,
    ids: ascendingIds(),
    clock: { now: () => Date.now() },
  };
  const result = await withStore(config, (store) => seedCharges(store, deps, account, count, Date.now()));
  const perSecond = Math.round((result.charges * 1000) / Math.max(1, result.ms));
  console.log(
    values.json === true
      ? JSON.stringify({ ...result, chargesPerSecond: perSecond })
      : `Seeded ${result.charges} test-mode charges (${result.refunds} refunds, ${result.events} events) into account ${account} in ${(result.ms / 1000).toFixed(1)} s: ${perSecond} charges/s (${(result.cpuMs / 1000).toFixed(1)} s of CPU).`,
  );
}
