import { join } from 'node:path';
import { backupSqliteStore, MASTER_KEY_FILE, restoreSqliteStore } from '../storage/sqlite-backup.ts';
import { parseFlags, requiredText, UsageError } from './args.ts';

const MASTER_KEY_NOTE = (dataDir: string) =>
  `The master key is not in the backup, by design: keep ${join(dataDir, MASTER_KEY_FILE)} (or PAYFRAME_MASTER_KEY) apart from it, as safely. A restore needs both.`;

/** `payframe backup --data-dir DIR --to FILE`: the embedded store only (PostgreSQL has its own tools). */
export async function backupCommand(args: string[]): Promise<void> {
  const { config, values } = parseFlags(args, { to: { type: 'string' } }, { name: 'backup', positionals: 0 });
  if (config.databaseUrl)
    throw new UsageError('backup copies the embedded store; back up PostgreSQL with its own tools (pg_dump, base backups): see docs/operations.md');
  const dataDir = requiredText(config.dataDir, 'backup needs --data-dir DIR, the data directory of the store to copy');
  const to = requiredText(values.to, 'backup needs --to FILE, where to write the copy');
  const { bytes } = await backupSqliteStore(dataDir, to);
  console.log(`Backed up ${dataDir} to ${to} (${bytes} bytes, mode 0600): every write acknowledged before the backup began is in it.`);
  console.log(MASTER_KEY_NOTE(dataDir));
}

/** `payframe restore --from FILE --data-dir NEW [--master-key-file FILE]`. */
export async function restoreCommand(args: string[]): Promise<void> {
  const { config, values } = parseFlags(args, { from: { type: 'string' }, 'master-key-file': { type: 'string' } }, { name: 'restore', positionals: 0 });
  if (config.databaseUrl) throw new UsageError('restore makes an embedded store; restore PostgreSQL with its own tools: see docs/operations.md');
  const from = requiredText(values.from, 'restore needs --from FILE, a backup made by payframe backup');
  const dataDir = requiredText(config.dataDir, 'restore needs --data-dir NEW, the data directory to make');
  const masterKeyFile =
    typeof values['master-key-file'] === 'string' ? requiredText(values['master-key-file'], 'restore needs a path after --master-key-file') : undefined;
  const restored = restoreSqliteStore(from, dataDir, masterKeyFile);
  console.log(`Restored ${from} into ${restored.database} (mode 0600, directory 0700).`);
  if (restored.masterKey) console.log(`Copied the master key to ${restored.masterKey} (mode 0600). Start the server with --data-dir ${dataDir}.`);
  else
    console.log(
      `The master key was not copied: before starting the server, copy the old data directory's ${MASTER_KEY_FILE} to ${join(dataDir, MASTER_KEY_FILE)} (mode 0600), or set PAYFRAME_MASTER_KEY as before. ` +
        "Started without it, the server makes a new key and cannot open the card data of unused tokens or the webhook endpoints' signing secrets.",
    );
}
