import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_CARDS } from '@payframe/contract/test-cards';
import type { Config } from '../config.ts';
import { randomIds } from '../ids.ts';
import { type CreatedKeys, createKeys } from '../services/api-keys.ts';
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

export function demoAccountBanner(keys: CreatedKeys, url: string): string {
  return [
    '',
    `Payframe is running at ${url}`,
    `  API:            ${url}/v2  (OpenAPI: ${url}/v2/openapi.json)`,
    `  Test secret key:      ${keys.secretKey}`,
    `  Test publishable key: ${keys.publishableKey}`,
    `  Try: curl ${url}/v2/tokens -H "X-Api-Key: ${keys.secretKey}" -d 'card[number]=${TEST_CARDS.visa.number}' -d 'card[cvc]=123' \\`,
    "         -d 'card[exp_month]=12' -d 'card[exp_year]=2030' -d 'card[name]=Ada Lovelace' \\",
    "         -d 'shopper[ip]=203.0.113.7' -d 'shopper[session_id]=s1' -d 'shopper[email]=ada@example.com'",
    '',
  ].join('\n');
}
