import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import type { Config } from '../config.ts';
import { randomIds } from '../ids.ts';
import { type CreatedKeys, createKeys } from '../services/api-keys.ts';
import { createUser, removeUser } from '../services/dashboard-users.ts';
import { withStore } from './open-store.ts';

/**
 * `serve --demo`: the first run creates a test-mode demo account and keeps its keys in the data
 * directory (mode 0600), so that every later start can print them again. It runs before the server
 * opens its own connection: a second SQLite connection in one process would wait on the server's
 * write lock while blocking the event loop that releases it.
 */
export async function demoAccountKeys(config: Config): Promise<CreatedKeys> {
  const file = join(config.dataDir, 'demo-keys.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as CreatedKeys;
  } catch {
    const keys = await withStore(config, (store) => createKeys(store, randomIds, 'demo', 'test', Date.now()));
    await writeFile(file, JSON.stringify(keys), { mode: 0o600 });
    return keys;
  }
}

export const DEMO_USER_EMAIL = 'demo@payframe.test';

export type DemoUser = { email: string; password: string };

/**
 * `serve --demo` also makes `demo@payframe.test` an admin of the demo account, with a generated
 * password kept beside the demo keys (mode 0600). A user left in the database without that file
 * (a new data directory on the same PostgreSQL) gets a new password: only the file can show one.
 */
export async function demoDashboardUser(config: Config): Promise<DemoUser> {
  const file = join(config.dataDir, 'demo-user.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as DemoUser;
  } catch {
    const user = await withStore(config, async (store) => {
      await removeUser(store, DEMO_USER_EMAIL);
      return createUser(store, randomIds, { account: 'demo', email: DEMO_USER_EMAIL, role: 'admin' }, Date.now());
    });
    const demoUser = { email: user.email, password: user.password };
    await writeFile(file, JSON.stringify(demoUser), { mode: 0o600 });
    return demoUser;
  }
}

export function demoAccountBanner(keys: CreatedKeys, user: DemoUser, url: string): string {
  return [
    '',
    `Payframe is running at ${url}`,
    `  API:            ${url}/v2  (OpenAPI: ${url}/v2/openapi.json)`,
    `  Dashboard:      ${url}/dashboard  (sign in as ${user.email}, password ${user.password})`,
    `  Test secret key:      ${keys.secretKey}`,
    `  Test publishable key: ${keys.publishableKey}`,
    `  Try: curl ${url}/v2/tokens -H "X-Api-Key: ${keys.secretKey}" -d 'card[number]=${TEST_CARDS.visa.number}' -d 'card[cvc]=123' \\`,
    "         -d 'card[exp_month]=12' -d 'card[exp_year]=2030' -d 'card[name]=Ada Lovelace' \\",
    "         -d 'shopper[ip]=203.0.113.7' -d 'shopper[session_id]=s1' -d 'shopper[email]=ada@example.com'",
    '',
  ].join('\n');
}
