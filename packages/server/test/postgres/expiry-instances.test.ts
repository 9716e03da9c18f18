import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createCharge, TEST_PANS } from '../client.ts';
import { eventually, queryStore } from '../database.ts';
import type { TestServer } from '../harness.ts';
import { sweepingPair } from './support.ts';

/**
 * Two instances sweeping one database as often as they can: every charge past its deadline
 * gets its expiry recorded, with exactly one `charge.expired`, whichever instance gets there.
 */

let first: TestServer;
let second: TestServer;
let apis: Client[];

beforeAll(async () => {
  ({ first, second, apis } = await sweepingPair('expiry-instances', 50));
});

afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
});

describe('charge.expired with two instances on PostgreSQL', () => {
  it('records each expiry once', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 40; index++) ids.push((await createCharge(apis[index % 2]!, TEST_PANS.visa3ds)).id);
    const kept = await createCharge(apis[0]!, TEST_PANS.visa);
    expect((await apis[0]!.post(`/v2/charges/capture/${kept.id}`)).status).toBe(200);
    expect((await apis[1]!.post('/v2/test_helpers/clock', { advance_seconds: String(8 * 24 * 3600) })).status).toBe(200);

    const expiredCount = async () => Number((await queryStore(first.dataDir, "select count(*) as n from events where name = 'charge.expired'"))[0]!.n);
    await eventually(async () => ((await expiredCount()) >= ids.length ? true : undefined), 10_000, 'every expiry recorded');

    // Let both instances take more runs, then count again.
    const runners = new Set<string>();
    await eventually(
      async () => {
        const [row] = await queryStore(first.dataDir, "select last_runner from background_jobs where name = 'expire-charges'");
        runners.add(String(row?.last_runner));
        return runners.size >= 2 ? true : undefined;
      },
      10_000,
      'runs by both instances',
    );
    const perCharge = await queryStore(first.dataDir, "select charge_id, count(*) as n from events where name = 'charge.expired' group by charge_id");
    expect(perCharge.map((row) => row.charge_id).sort()).toEqual([...ids].sort());
    expect(perCharge.every((row) => Number(row.n) === 1)).toBe(true);
    const statuses = await queryStore(first.dataDir, "select count(*) as n from charges where status = 'REFUNDED' and reason = 'EXPIRED'");
    expect(Number(statuses[0]!.n)).toBe(ids.length);
    for (const server of [first, second]) expect(server.output()).not.toContain('background job failed');
  });
});
