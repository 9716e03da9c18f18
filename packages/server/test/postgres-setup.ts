import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

const ENSURE = fileURLToPath(new URL('../../../scripts/ensure-postgres.sh', import.meta.url));

/** Finds (or installs and starts) PostgreSQL before the PostgreSQL project runs; fails loudly if it cannot. */
export default function setup(project: TestProject) {
  const output = execFileSync('bash', [ENSURE], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const url = output.trim().split('\n').at(-1) ?? '';
  project.provide('postgresUrl', url);
  // Databases are named per run, so that two runs on one machine never drop each other's.
  const prefix = `payframe_test_${randomBytes(4).toString('hex')}_`;
  project.provide('postgresDatabasePrefix', prefix);

  // Every test database of this run is dropped at the end.
  return async () => {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
      for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await admin.end();
    }
  };
}
