import { join } from 'node:path';
import { expect, it } from 'vitest';
import { client } from '../client.ts';
import { startServer, tempDataDir } from '../harness.ts';
import { requirePostgres } from './support.ts';

it('serve --demo on PostgreSQL makes the data directory it keeps the demo credentials in', async () => {
  requirePostgres();
  // storeArgs gives it a fresh database; nothing has made this directory yet.
  const dataDir = join(tempDataDir(), 'not-made-yet');
  const server = await startServer({ dataDir, args: ['--demo'] });
  try {
    await server.waitForOutput('Test publishable key');
    const secretKey = /Test secret key:\s+(sk_test_\S+)/.exec(server.output())?.[1] ?? '';
    expect((await client(server.url, secretKey).get('/v2/test_helpers/clock')).status).toBe(200);
  } finally {
    await server.stop();
  }
});
