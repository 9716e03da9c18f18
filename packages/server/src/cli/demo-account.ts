import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import type { Config } from '../config.ts';
import { randomIds } from '../ids.ts';
import { hashApiKey } from '../security/api-keys.ts';
import { type CreatedKeys, createKeys, lookUpKey } from '../services/api-keys.ts';
import { createUser, removeUser, signsInWith } from '../services/dashboard-users.ts';
import { prepareDataDirectory } from '../storage/file-modes.ts';
import { withStore } from './open-store.ts';

/** What an earlier `serve --demo` kept in the data directory, if anything readable. */
async function saved<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Written owner-only, into the data directory made first: on PostgreSQL nothing else has made it yet. */
async function keep(config: Config, name: string, value: unknown): Promise<void> {
  prepareDataDirectory(config.dataDir);
  await writeFile(join(config.dataDir, name), JSON.stringify(value), { mode: 0o600 });
}

/**
 * `serve --demo`: the first run creates a test-mode demo account and keeps its keys in the data
 * directory (mode 0600), so that every later start can print them again, as long as the store
 * still takes them: keys revoked since, or a data directory now used with another database, get
 * new ones. It runs before the server opens its own connection: a second SQLite connection in one
 * process would wait on the server's write lock while blocking the event loop that releases it.
 */
export async function demoAccountKeys(config: Config): Promise<CreatedKeys> {
  const kept = await saved<CreatedKeys>(join(config.dataDir, 'demo-keys.json'));
  const keys = await withStore(config, async (store) => {
    const now = Date.now();
    const valid = async (key: string) => (await lookUpKey(store, hashApiKey(key), now)) !== null;
    if (kept && (await valid(kept.secretKey)) && (await valid(kept.publishableKey))) return kept;
    return createKeys(store, randomIds, 'demo', 'test', now);
  });
  if (keys !== kept) await keep(config, 'demo-keys.json', keys);
  return keys;
}

export const DEMO_USER_EMAIL = 'demo@payframe.test';

export type DemoUser = { email: string; password: string };

/**
 * `serve --demo` also makes `demo@payframe.test` an admin of the demo account, with a generated
 * password kept beside the demo keys (mode 0600). The kept password is printed again only while
 * it signs in: a user removed since, or one of another data directory on the same PostgreSQL,
 * is made again with a new password, which only the file can show.
 */
export async function demoDashboardUser(config: Config): Promise<DemoUser> {
  const kept = await saved<DemoUser>(join(config.dataDir, 'demo-user.json'));
  const user = await withStore(config, async (store) => {
    if (kept && (await signsInWith(store, kept.email, kept.password))) return kept;
    await removeUser(store, DEMO_USER_EMAIL);
    const created = await createUser(store, randomIds, { account: 'demo', email: DEMO_USER_EMAIL, role: 'admin' }, Date.now());
    return { email: created.email, password: created.password };
  });
  if (user !== kept) await keep(config, 'demo-user.json', user);
  return user;
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
