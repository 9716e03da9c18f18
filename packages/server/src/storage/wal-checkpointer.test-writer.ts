/**
 * For wal-checkpointer.test.ts: opens a store in DIR with a checkpoint policy and writes rows from
 * eight concurrent writers until killed, printing the number of each row once it is acknowledged
 * (stdout is a pipe: written synchronously on Linux, so a printed row was acknowledged).
 *
 *   node --import tsx wal-checkpointer.test-writer.ts DIR EVERY_MS RESTART_AT_PAGES
 */
import { sql } from 'kysely';
import { openSqliteStore } from './sqlite.ts';

const [dataDir = '', everyMs, restartAtPages] = process.argv.slice(2);
const store = await openSqliteStore(dataDir, { everyMs: Number(everyMs), restartAtPages: Number(restartAtPages) });
// Rows of about 1 KB: a few per page, so the WAL grows by many pages.
const padding = 'x'.repeat(1_000);
let next = 0;

async function writer(): Promise<never> {
  for (;;) {
    const row = next++;
    await store.transaction((tx) => sql`insert into rate_limits (key, count, window_start) values (${`row-${row}-${padding}`}, ${row}, 0)`.execute(tx));
    process.stdout.write(`${row}\n`);
  }
}

await Promise.all(Array.from({ length: 8 }, writer));
