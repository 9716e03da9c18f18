import { ModeSchema } from '@payframe/contract';
import { loadConfig } from '../config.ts';
import { randomIds } from '../ids.ts';
import { createKeys, listKeys, revokeKey } from '../services/api-keys.ts';
import { parseFlags, requiredText, UsageError } from './args.ts';
import { withStore } from './open-store.ts';

const OPTIONS = { account: { type: 'string' }, mode: { type: 'string' }, json: { type: 'boolean' } } as const;

/** `payframe keys create|list|revoke`: works on a fresh store (it migrates) and beside a running server. */
export async function keysCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { config: flags, values, positionals } = parseFlags(rest, OPTIONS, { name: `keys ${action ?? ''}`.trim(), positionals: action === 'revoke' ? 1 : 0 });
  const config = loadConfig(flags);
  const json = values.json === true;

  if (action === 'create') {
    const account = requiredText(values.account, 'keys create needs --account NAME');
    const mode = ModeSchema.safeParse(values.mode);
    if (!mode.success) throw new UsageError('keys create needs --mode test or --mode live');
    const keys = await withStore(config, (store) => createKeys(store, randomIds, account, mode.data, Date.now()));
    const { mode: _mode, ...printed } = keys;
    console.log(
      json
        ? JSON.stringify(printed)
        : `Account ${keys.account} (${keys.mode})\n  secret key:      ${keys.secretKey}\n  publishable key: ${keys.publishableKey}\nKeys are shown only once; store them now.`,
    );
    return;
  }
  if (action === 'list') {
    const account = typeof values.account === 'string' ? values.account : undefined;
    const keys = await withStore(config, (store) => listKeys(store, account));
    if (json) console.log(JSON.stringify(keys));
    else for (const key of keys) console.log(`${key.id}  ${key.account}  ${key.kind} ${key.mode}  ${key.hint}${key.revoked ? '  revoked' : ''}`);
    return;
  }
  if (action === 'revoke') {
    const target = positionals[0];
    if (!target) throw new UsageError('keys revoke needs the key or its id');
    const revoked = await withStore(config, (store) => revokeKey(store, target, Date.now()));
    if (json) console.log(JSON.stringify({ revoked }));
    else console.log(revoked ? 'Key revoked.' : 'No active key matches.');
    if (!revoked) process.exitCode = 1;
    return;
  }
  throw new UsageError('keys takes create, list or revoke');
}
