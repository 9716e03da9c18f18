import { chmodSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, TEST_PANS, tokenParams } from './client.ts';
import { createKeys, startServer, TEST_POSTGRES_URL, tempDataDir } from './harness.ts';

/**
 * The database, its WAL and SHM files and the key file are owner-only whatever the umask; a data
 * directory the server makes is too, and an existing one others can read gets a warning at start.
 * With PostgreSQL the data directory holds only the key file.
 */

const modeOf = (path: string) => `0${(statSync(path).mode & 0o777).toString(8)}`;
const privateFiles = (dataDir: string) =>
  ['master.key', ...(TEST_POSTGRES_URL ? [] : ['payframe.sqlite3', 'payframe.sqlite3-wal', 'payframe.sqlite3-shm'])].map((name) => join(dataDir, name));

let umask: number;

beforeAll(() => {
  // The servers inherit the umask of the process that spawns them: a common, permissive one.
  umask = process.umask(0o022);
});

afterAll(() => {
  process.umask(umask);
});

/** Starts a server on `dataDir`, writes through it (the WAL then exists) and stops it; answers its output. */
async function runOnce(dataDir: string): Promise<string> {
  const server = await startServer({ dataDir });
  try {
    const keys = await createKeys(dataDir, 'file-modes');
    expect((await client(server.url, keys.secretKey).post('/v2/tokens', tokenParams(TEST_PANS.visa))).status).toBe(200);
    for (const file of privateFiles(dataDir)) {
      expect(existsSync(file), file).toBe(true);
      expect({ file, mode: modeOf(file) }).toEqual({ file, mode: '0600' });
    }
    return server.output();
  } finally {
    await server.stop();
  }
}

describe('file modes under umask 022', () => {
  it('makes a new data directory 0700 and its files 0600, without a warning', async () => {
    const dataDir = join(tempDataDir(), 'data');
    const output = await runOnce(dataDir);
    expect(modeOf(dataDir)).toBe('0700');
    expect(output).not.toContain('other users can read it');
  });

  it('makes files left readable 0600 again and warns about a data directory others can read', async () => {
    const dataDir = join(tempDataDir(), 'data');
    await runOnce(dataDir);
    for (const file of privateFiles(dataDir).filter(existsSync)) chmodSync(file, 0o644);
    chmodSync(dataDir, 0o755);

    const output = await runOnce(dataDir);
    const warning = output.split('\n').find((line) => line.includes('other users can read it'));
    expect(warning, output).toBeDefined();
    expect(JSON.parse(warning ?? '{}')).toMatchObject({ level: 40, dataDir, mode: '0755' });
    expect(modeOf(dataDir), 'the operator’s directory mode is left as it was').toBe('0755');
  });
});
