import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { storeArgs, TEST_POSTGRES_URL } from './harness.ts';

/** All files under the directory, read as bytes. */
function readAll(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (statSync(path).isFile()) files.set(name, readFileSync(path));
  }
  return files;
}

/** The data directory's files and, on PostgreSQL, every table's rows as text: wherever the store keeps data. */
export async function readStore(dataDir: string): Promise<Map<string, Buffer>> {
  const files = readAll(dataDir);
  if (!TEST_POSTGRES_URL) return files;
  const args = await storeArgs(dataDir);
  const database = new pg.Client({ connectionString: args[args.indexOf('--database-url') + 1] });
  await database.connect();
  try {
    const { rows: tables } = await database.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public'");
    for (const { name } of tables) {
      const { rows } = await database.query<{ row: string }>(`select row_to_json(t)::text as row from "${name}" t`);
      files.set(`table ${name}`, Buffer.from(rows.map((row) => row.row).join('\n')));
    }
  } finally {
    await database.end();
  }
  return files;
}
