/**
 * A pg_auto_failover formation on this machine for `npm run test:ha`: a monitor, a primary and a
 * synchronous secondary, each its own PostgreSQL on its own port and data directory under a
 * temporary directory. The machine's own PostgreSQL (5432) is never touched.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@payframe/server/process';

const run = promisify(execFile);
const PG_BIN = '/usr/lib/postgresql/15/bin';
const PACKAGE = 'postgresql-15-auto-failover';

export type PgNode = { name: string; port: number; pgdata: string; keeper: ChildProcess };
export type Cluster = {
  root: string;
  monitorPort: number;
  nodes: PgNode[];
  /** libpq's multi-host URI, as the formation hands it to applications. */
  uri: string;
  /** The node serving read-write sessions now, by asking each. */
  primary(): Promise<PgNode | undefined>;
  /** Kills a node like a lost machine: its keeper and its postgres, all with SIGKILL. */
  kill(node: PgNode): void;
  states(): Promise<{ name: string; state: string; assigned: string }[]>;
  stop(): Promise<void>;
};

const say = (text: string) => console.log(`test:ha: ${text}`);

/** pg_autoctl refuses to run as root: it runs as the postgres user then, who owns the directory. */
const asRoot = process.getuid?.() === 0;

function pgEnv(root: string): NodeJS.ProcessEnv {
  // Its own configuration and state directories, so nothing is left in the postgres user's home.
  return { PATH: `${PG_BIN}:/usr/bin:/bin`, XDG_CONFIG_HOME: join(root, 'config'), XDG_DATA_HOME: join(root, 'share'), LANG: 'C.UTF-8' };
}

function command(root: string, args: string[]): [string, string[]] {
  const env = Object.entries(pgEnv(root)).map(([name, value]) => `${name}=${value}`);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', 'env', ...env, 'pg_autoctl', ...args]] : ['env', [...env, 'pg_autoctl', ...args]];
}

async function autoctl(root: string, args: string[]): Promise<string> {
  const [file, argv] = command(root, args);
  const { stdout } = await run(file, argv, { maxBuffer: 8 * 1024 * 1024 });
  return stdout;
}

/** The monitor's extension: pg_autoctl alone (its own package, pg-auto-failover-cli) is not enough. */
const EXTENSION = '/usr/share/postgresql/15/extension/pgautofailover.control';

/** Installs pg_auto_failover from Debian's packages when it is missing, and says so. */
export function ensurePgAutoFailover(): void {
  const missing = [
    spawnSync('pg_autoctl', ['--version']).status === 0 ? null : 'pg_autoctl',
    existsSync(EXTENSION) ? null : 'the pgautofailover extension',
  ].filter(Boolean);
  if (missing.length === 0) return;
  if (!asRoot) throw new Error(`${missing.join(' and ')} missing: install ${PACKAGE} (apt-get install ${PACKAGE}) or run as root`);
  say(`${missing.join(' and ')} missing: installing ${PACKAGE} with apt-get`);
  let install = spawnSync('apt-get', ['install', '-y', PACKAGE], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (install.status !== 0) {
    say('apt-get install failed: running apt-get update and trying again');
    spawnSync('apt-get', ['update'], { stdio: 'inherit' });
    install = spawnSync('apt-get', ['install', '-y', PACKAGE], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  if (install.status !== 0) throw new Error(`apt-get install ${PACKAGE} failed`);
}

async function psql(port: number, database: string, sql: string): Promise<string> {
  const { stdout } = await run(join(PG_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-tAc', sql], {
    timeout: 5_000,
  });
  return stdout.trim();
}

async function until<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function buildCluster(root: string, log: (line: string) => void): Promise<Cluster> {
  if (asRoot) chownSync(root, uidOf('postgres'), gidOf('postgres'));
  const keepers: ChildProcess[] = [];
  const start = (name: string, args: string[]) => {
    const [file, argv] = command(root, [...args, '--run']);
    // Its own process group: killing the node kills its keeper and the postgres it supervises.
    const keeper = spawn(file, argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [keeper.stdout, keeper.stderr]) stream?.on('data', (chunk: Buffer) => log(`[${name}] ${chunk.toString().trimEnd()}`));
    keepers.push(keeper);
    return keeper;
  };
  const [monitorPort, port1, port2] = [await freePort('127.0.0.1'), await freePort('127.0.0.1'), await freePort('127.0.0.1')];
  const common = ['--pgctl', join(PG_BIN, 'pg_ctl'), '--hostname', '127.0.0.1', '--auth', 'trust', '--no-ssl'];

  start('monitor', ['create', 'monitor', '--pgdata', join(root, 'monitor'), '--pgport', String(monitorPort), ...common]);
  await until('the monitor', 60_000, async () => ((await psql(monitorPort, 'pg_auto_failover', 'select 1')) === '1' ? true : undefined));
  // The defaults (20 s before a node counts as unhealthy, 30 s for a demotion) are tuned for networks
  // that hiccup; on one machine, shorter ones let the failover fit the 30 s promise with room to spare.
  for (const [setting, value] of Object.entries({
    health_check_period: 1000,
    health_check_timeout: 1000,
    health_check_max_retries: 1,
    health_check_retry_delay: 500,
    node_considered_unhealthy_timeout: 2000,
    primary_demote_timeout: 3000,
  })) {
    await psql(monitorPort, 'pg_auto_failover', `alter system set pgautofailover.${setting} = ${value}`);
  }
  await psql(monitorPort, 'pg_auto_failover', 'select pg_reload_conf()');
  const monitorUri = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;

  const nodes: PgNode[] = [];
  for (const [name, port] of [
    ['node1', port1],
    ['node2', port2],
  ] as const) {
    const pgdata = join(root, name);
    const keeper = start(name, [
      'create',
      'postgres',
      '--pgdata',
      pgdata,
      '--pgport',
      String(port),
      '--listen',
      '127.0.0.1',
      '--dbname',
      'payframe',
      '--name',
      name,
      '--monitor',
      monitorUri,
      ...common,
    ]);
    nodes.push({ name, port, pgdata, keeper });
    const wanted = name === 'node1' ? ['single', 'wait_primary', 'primary'] : ['secondary'];
    await until(`${name} to be ${wanted.join(' or ')}`, 180_000, async () => {
      // pg_basebackup waits for a checkpoint, which an idle primary spreads over minutes.
      if (name === 'node2') await psql(port1, 'payframe', 'checkpoint').catch(() => undefined);
      const states = await stateOf();
      return states.some((node) => node.name === name && wanted.includes(node.state) && node.state === node.assigned) ? true : undefined;
    });
  }
  await until('node1 to be primary with a synchronous standby', 60_000, async () => {
    const sync = await psql(port1, 'payframe', 'show synchronous_standby_names');
    return sync !== '' ? true : undefined;
  });

  async function stateOf(): Promise<{ name: string; state: string; assigned: string }[]> {
    const json = JSON.parse(await autoctl(root, ['show', 'state', '--pgdata', join(root, 'monitor'), '--json'])) as Array<{
      nodename: string;
      current_group_state: string;
      assigned_group_state: string;
    }>;
    return json.map((node) => ({ name: node.nodename, state: node.current_group_state, assigned: node.assigned_group_state }));
  }

  return {
    root,
    monitorPort,
    nodes,
    uri: `postgres://postgres@127.0.0.1:${port1},127.0.0.1:${port2}/payframe?target_session_attrs=read-write&sslmode=disable`,
    async primary() {
      for (const node of nodes) {
        const answer = await psql(node.port, 'payframe', 'select pg_is_in_recovery()').catch(() => undefined);
        if (answer === 'f') return node;
      }
      return undefined;
    },
    kill(node) {
      const postmaster = postmasterPid(node.pgdata);
      killGroup(node.keeper, 'SIGKILL');
      if (postmaster) {
        try {
          process.kill(postmaster, 'SIGKILL');
        } catch {
          // Already gone with its group.
        }
      }
    },
    states: stateOf,
    async stop() {
      for (const keeper of keepers) killGroup(keeper, 'SIGTERM');
      await Promise.all(keepers.map((keeper) => exitOf(keeper, 15_000)));
      for (const keeper of keepers) killGroup(keeper, 'SIGKILL');
      // A postgres that outlived its keeper (it should not) is stopped by its pid file.
      for (const dir of ['monitor', 'node1', 'node2']) {
        const pid = postmasterPid(join(root, dir));
        if (pid) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Gone.
          }
        }
      }
    },
  };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

function exitOf(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function postmasterPid(pgdata: string): number | undefined {
  const file = join(pgdata, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function uidOf(user: string): number {
  return Number(spawnSync('id', ['-u', user]).stdout.toString().trim());
}

function gidOf(user: string): number {
  return Number(spawnSync('id', ['-g', user]).stdout.toString().trim());
}
