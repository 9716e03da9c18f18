/** `npm run bench` flags, parsed once (flows.ts describes them). */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ScenarioName } from './load.ts';

export type Store = 'sqlite' | 'postgres';

export type Options = {
  scenario: ScenarioName;
  concurrency: number;
  seconds: number;
  warmupSeconds: number;
  json: boolean;
  logLevel: string;
  profileDir: string | null;
  db: Store;
  instances: number;
  /** `--instances compare`: one instance and two side by side, see instances-compare.ts. */
  instancesCompare: boolean;
  postgresUrl: string | null;
  poolSize: number | null;
  countQueries: boolean;
  matrix: boolean;
  /** Measures the flow without and with one webhook endpoint: see webhook.ts. */
  webhook: boolean;
  /** With `--webhook`: whole runs alternating over this many pairs, instead of side by side. */
  pairs: number | null;
  /** Another build's `bin/payframe.js`, run side by side with this one: see build-compare.ts. */
  against: string | null;
  /** Each scenario between two floor measurements, and the ratios: see vs-floor.ts. */
  vsFloor: boolean;
  /** With `--vs-floor`: how many times the whole measurement runs, back to back. */
  runs: number;
  /** This run registers one webhook endpoint at a local receiver answering 200. */
  withWebhook: boolean;
  /** The servers' `--request-log`: `off` measures the API without the request log; `compare` runs both, see request-log-compare.ts. */
  requestLog: 'on' | 'off' | 'compare';
  /** With `--request-log compare`: how long each side is driven before the load moves to the other. */
  sliceSeconds: number;
};

export function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: 'string', default: 'flow' },
      concurrency: { type: 'string', default: '32' },
      seconds: { type: 'string' },
      warmup: { type: 'string', default: '2' },
      json: { type: 'boolean', default: false },
      'log-level': { type: 'string', default: 'warn' },
      profile: { type: 'boolean', default: false },
      'profile-dir': { type: 'string' },
      db: { type: 'string' },
      store: { type: 'string' },
      instances: { type: 'string', default: '1' },
      'postgres-url': { type: 'string' },
      'pool-size': { type: 'string' },
      'count-queries': { type: 'boolean', default: false },
      matrix: { type: 'boolean', default: false },
      webhook: { type: 'boolean', default: false },
      'with-webhook': { type: 'boolean', default: false },
      'request-log': { type: 'string', default: 'on' },
      'vs-floor': { type: 'boolean', default: false },
      slice: { type: 'string', default: '1' },
      pairs: { type: 'string' },
      runs: { type: 'string', default: '1' },
      against: { type: 'string' },
    },
    strict: true,
  });
  if (values.db !== undefined && values.store !== undefined && values.db !== values.store) throw new Error('--db and --store name the same thing: give one');
  const db = values.db ?? values.store ?? 'sqlite';
  if (db !== 'sqlite' && db !== 'postgres') throw new Error('--db (or --store) must be sqlite or postgres');
  const requestLog = values['request-log'];
  if (requestLog !== 'on' && requestLog !== 'off' && requestLog !== 'compare') throw new Error('--request-log must be on, off or compare');
  const scenario = values.scenario;
  if (scenario !== 'flow' && scenario !== 'get' && scenario !== 'tokens') throw new Error('--scenario must be flow, get or tokens');
  const instancesCompare = values.instances === 'compare';
  const instances = instancesCompare ? 1 : positiveNumber('instances', values.instances, 1, 8);
  // The embedded store is one process's file: several instances on it is not a supported deployment.
  if (db === 'sqlite' && (instances > 1 || instancesCompare) && !values.matrix) throw new Error(`--instances ${values.instances} needs --db postgres`);
  if (values.runs !== '1' && !values['vs-floor']) throw new Error('--runs goes with --vs-floor');
  const profileDir = values['profile-dir'] ?? (values.profile ? mkdtempSync(join(tmpdir(), 'payframe-prof-')) : null);
  return {
    scenario,
    concurrency: positiveNumber('concurrency', values.concurrency, 1, 1_024),
    // Against the floor, runs are as long as the floor's own (6 to 10 s), so drift between them stays small.
    seconds: positiveNumber('seconds', values.seconds ?? (values['vs-floor'] ? '8' : '15'), 1, 600),
    warmupSeconds: positiveNumber('warmup', values.warmup, 0, 60),
    json: values.json,
    logLevel: values['log-level'],
    profileDir,
    db,
    instances,
    instancesCompare,
    postgresUrl: values['postgres-url'] ?? null,
    poolSize: values['pool-size'] === undefined ? null : positiveNumber('pool-size', values['pool-size'], 1, 200),
    countQueries: values['count-queries'],
    matrix: values.matrix,
    webhook: values.webhook,
    withWebhook: values['with-webhook'],
    requestLog,
    sliceSeconds: positiveNumber('slice', values.slice, 0.5, 60),
    pairs: values.pairs === undefined ? null : positiveNumber('pairs', values.pairs, 1, 20),
    against: values.against ?? null,
    vsFloor: values['vs-floor'],
    runs: positiveNumber('runs', values.runs, 1, 10),
  };
}

function positiveNumber(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
  return value;
}
