import { createInterface } from 'node:readline';
import { DashboardRoleSchema } from '@payframe/contract';
import { loadConfig } from '../config.ts';
import { randomIds } from '../ids.ts';
import { createUser, listDashboardUsers, removeUser } from '../services/dashboard-users.ts';
import { parseFlags, requiredText, UsageError } from './args.ts';
import { withStore } from './open-store.ts';

const OPTIONS = {
  account: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

/**
 * The first line of standard input, without its line ending: `printf %s "$PW" | payframe users
 * create … --password-stdin`. Read as soon as the line ends: a writer that keeps the pipe open is
 * not waited for.
 */
async function readPasswordFromStdin(): Promise<string> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
    process.stdin.destroy();
  }
}

/** `payframe users create|list|remove`: dashboard users; works on a fresh store (it migrates) and beside a running server. */
export async function usersCommand(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { config: flags, values, positionals } = parseFlags(rest, OPTIONS, { name: `users ${action ?? ''}`.trim(), positionals: action === 'remove' ? 1 : 0 });
  const config = loadConfig(flags);
  const json = values.json === true;

  if (action === 'create') {
    const account = requiredText(values.account, 'users create needs --account NAME');
    const email = requiredText(values.email, 'users create needs --email E');
    const role = DashboardRoleSchema.safeParse(values.role);
    if (!role.success) throw new UsageError('users create needs --role admin or --role viewer');
    const password = values['password-stdin'] === true ? await readPasswordFromStdin() : undefined;
    const user = await withStore(config, (store) => createUser(store, randomIds, { account, email, role: role.data, password }, Date.now()));
    const printed = { account: user.account, email: user.email, role: user.role, ...(user.generated ? { password: user.password } : {}) };
    if (json) console.log(JSON.stringify(printed));
    else {
      console.log(`User ${user.email} (${user.role} of ${user.account}) created.`);
      if (user.generated) console.log(`  password: ${user.password}\nThe password is shown only once; store it now.`);
    }
    return;
  }
  if (action === 'list') {
    const account = typeof values.account === 'string' ? values.account : undefined;
    const users = await withStore(config, (store) => listDashboardUsers(store, account));
    const rows = users.map(({ email, role, account: name, created_at }) => ({ email, role, account: name, created: Math.floor(created_at / 1000) }));
    if (json) console.log(JSON.stringify(rows));
    else for (const user of rows) console.log(`${user.email}  ${user.role}  ${user.account}`);
    return;
  }
  if (action === 'remove') {
    const email = positionals[0] ?? (typeof values.email === 'string' ? values.email : undefined);
    if (!email) throw new UsageError('users remove needs the e-mail');
    const removed = await withStore(config, (store) => removeUser(store, email));
    if (json) console.log(JSON.stringify({ removed }));
    else console.log(removed ? 'User removed; their sessions have ended.' : 'No user has that e-mail.');
    if (!removed) process.exitCode = 1;
    return;
  }
  throw new UsageError('users takes create, list or remove');
}
