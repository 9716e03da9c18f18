import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, chargeParams, createToken, TEST_PANS } from '../client.ts';
import { eventually, queryStore } from '../database.ts';
import type { TestServer } from '../harness.ts';
import { sweepingPair } from './support.ts';

/**
 * Every instance runs the sweeper; the database decides which one does each run. Two instances
 * sweeping one database as often as they can do no harm, and when one is killed outright the
 * other carries on alone.
 */

let first: TestServer;
let second: TestServer;
let apis: Client[];

beforeAll(async () => {
  ({ first, second, apis } = await sweepingPair('sweeper-instances', 100));
});

afterAll(async () => {
  await Promise.all([first?.stop('SIGKILL'), second?.stop()]);
});

async function tokenOn(api: Client): Promise<string> {
  return (await createToken(api, TEST_PANS.visa)).id;
}

const unerased = async (ids: string[]) =>
  (await queryStore(first.dataDir, 'select id from tokens where card_secret is not null')).filter((row) => ids.includes(row.id as string));

describe('two instances sweeping one PostgreSQL database', () => {
  it('both take runs, erase every expired token and leave used tokens alone', async () => {
    const unused: string[] = [];
    const used: string[] = [];
    for (let index = 0; index < 10; index++) {
      const api = apis[index % 2]!;
      const id = await tokenOn(api);
      if (index % 3 === 0) {
        expect((await api.post('/v2/charges', chargeParams(id))).status).toBe(200);
        used.push(id);
      } else {
        unused.push(id);
      }
    }
    const usedBefore = await queryStore(first.dataDir, 'select * from tokens where used_at is not null order by id');
    expect((await apis[0]!.post('/v2/test_helpers/clock', { advance_seconds: String(16 * 60) })).status).toBe(200);

    await eventually(async () => ((await unerased(unused)).length === 0 ? true : undefined), 10_000, 'expired tokens erased');
    expect(await queryStore(first.dataDir, 'select * from tokens where used_at is not null order by id')).toEqual(usedBefore);

    const runners = new Set<string>();
    await eventually(
      async () => {
        for (const row of await queryStore(first.dataDir, 'select last_runner from background_jobs')) runners.add(String(row.last_runner));
        return runners.size >= 2 ? true : undefined;
      },
      10_000,
      'runs taken by both instances',
    );
    for (const server of [first, second]) expect(server.output()).not.toContain('background job failed');
  });

  it('keeps sweeping after one instance is killed with SIGKILL', async () => {
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const survivor = apis[1]!;
    const id = await tokenOn(survivor);
    expect((await survivor.post('/v2/test_helpers/clock', { advance_seconds: String(16 * 60) })).status).toBe(200);
    await eventually(async () => ((await unerased([id])).length === 0 ? true : undefined), 10_000, 'erased by the survivor');

    expect(await second.stop()).toEqual({ code: 0, signal: null });
    expect(second.output()).toContain('payframe stopped');
    expect(second.output()).not.toContain('background job failed');
  });
});
