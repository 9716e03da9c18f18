import { mkdtempSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { captureCharge, client, createCharge, TEST_PANS } from './client.ts';
import { createKeys, startServer, type TestServer } from './harness.ts';

/**
 * The embedded store keeps its savepoints' page images in memory (`temp_store = MEMORY`). SQLite
 * otherwise spills a sub-journal past 64 KiB into a temp file: created, written and deleted again
 * for a batch of requests, costing system calls, and holding row images, sealed card data among
 * them, on a disk outside the data directory. SQLite puts its temp files in `SQLITE_TMPDIR`.
 */
let server: TestServer;
let secretKey: string;
const tempDir = mkdtempSync(join(tmpdir(), 'payframe-sqlite-tmp-'));
const created: string[] = [];
const watcher = watch(tempDir, (_event, name) => created.push(String(name)));

beforeAll(async () => {
  server = await startServer({ env: { SQLITE_TMPDIR: tempDir } });
  ({ secretKey } = await createKeys(server.dataDir, 'temp-files'));
});

afterAll(async () => {
  watcher.close();
  await server.stop();
});

it('a few hundred flows create not a single temp file', async () => {
  const api = client(server.url, secretKey);
  // Without the pragma, these flows made some 570 temp files.
  const loops = Array.from({ length: 8 }, async () => {
    for (let i = 0; i < 30; i++) await captureCharge(api, (await createCharge(api, TEST_PANS.visa)).id);
  });
  await Promise.all(loops);
  expect(created).toEqual([]);
});
