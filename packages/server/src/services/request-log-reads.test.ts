import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestLogEntry, RequestLogStatusClass } from '@payframe/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeHex } from '../ids.ts';
import { openStore, type Store } from '../storage/db.ts';
import { insertRequestLogBatches } from '../storage/repositories/request-log.ts';
import { batchOf, RUN_SPAN_MS } from '../storage/request-log-batch.ts';
import type { Caller } from './context.ts';
import { type AnsweredRequest, requestLogRow, startRequestLog } from './request-log.ts';
import { listRequestLogEntries, requestLogDetail } from './request-log-reads.ts';

const BASE = Date.UTC(2026, 10, 27, 12);
const caller: Caller = { accountId: 'acct_a', mode: 'test', now: BASE };
const PATHS = ['/v2/charges', '/v2/tokens', '/v2/charges/C1/capture', '/v2/refunds'];
const STATUSES = [200, 402, 200, 500, 404];

let counter = 0;
function answered(at: number, overrides: Partial<AnsweredRequest> = {}): AnsweredRequest {
  counter += 1;
  const status = STATUSES[counter % STATUSES.length]!;
  return {
    id: `req_${timeHex(at)}${counter.toString(16).padStart(12, '0')}`,
    accountId: caller.accountId,
    mode: caller.mode,
    at,
    method: 'POST',
    url: PATHS[counter % PATHS.length]!,
    status,
    durationMs: 3,
    keyId: 'key_1',
    idempotencyKey: undefined,
    query: {},
    body: { n: counter },
    response: `{"n":${counter},"text":"line\\nbreak \\"quoted\\" é"}`,
    ...overrides,
  };
}

/** How many single-entry runs come first: enough values that a chunk of the reads ends between the two interleaved runs whatever the chunk sizes. */
const SINGLE_COUNTS = Array.from({ length: 40 }, (_, i) => i + 1);

let store: Store;
/** What the log holds for the caller, newest first, as lists must give it. */
let expected: AnsweredRequest[] = [];
let longRequest: AnsweredRequest;

beforeAll(async () => {
  store = await openStore({ kind: 'sqlite', dataDir: mkdtempSync(join(tmpdir(), 'request-log-reads-')) });
  const log = startRequestLog(store, (error) => {
    throw error;
  });
  const mine: AnsweredRequest[] = [];
  // 3.5 s of requests, several a millisecond at times, written in flushes of uneven sizes: runs
  // split at RUN_SPAN_MS, and batches of consecutive flushes meet.
  const times = Array.from({ length: 400 }, (_, i) => BASE + Math.floor(i * 8.75) - (i % 3 === 0 ? 0 : 1));
  let next = 0;
  for (const size of [37, 1, 90, 13, 200, 59]) {
    for (const at of times.slice(next, next + size)) {
      const request = answered(at);
      mine.push(request);
      log.add(request);
      // Another account's and the other mode's requests of the same moments, never listed.
      log.add(answered(at, { accountId: 'acct_b' }));
      log.add(answered(at, { mode: 'live' }));
    }
    next += size;
    await log.flush();
  }
  // A request received near the start and answered last (an event stream): a batch of its own,
  // written after every other, whose entry lists among the first second's.
  longRequest = answered(BASE + 20, { url: '/v2/events/stream', status: 200, durationMs: 3_400 });
  mine.push(longRequest);
  log.add(longRequest);
  await log.close();
  expected = [...mine].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
});
afterAll(() => store?.close());

async function page(query: { limit: number; starting_after?: string; ending_before?: string; status?: RequestLogStatusClass; path?: string }) {
  return store.read((db) => listRequestLogEntries(db, caller, query));
}

/** Every page, following starting_after from the first. */
async function walkOlder(limit: number, filter: { status?: RequestLogStatusClass; path?: string } = {}): Promise<RequestLogEntry[]> {
  const seen: RequestLogEntry[] = [];
  let answer = await page({ limit, ...filter });
  seen.push(...answer.data);
  while (answer.has_more) {
    answer = await page({ limit, ...filter, starting_after: seen.at(-1)!.id });
    seen.push(...answer.data);
  }
  return seen;
}

describe('the request log, stored as runs of entries', () => {
  it('lists every entry of the account and mode once, newest first, page after page', async () => {
    expect(expected.length).toBe(401);
    for (const limit of [1, 7, 25, 100]) {
      const seen = await walkOlder(limit);
      expect(seen.map((entry) => entry.id)).toEqual(expected.map((request) => request.id));
    }
    const [first] = (await page({ limit: 1 })).data;
    expect(first).toMatchObject({ id: expected[0]!.id, created: expected[0]!.at, status: expected[0]!.status, path: expected[0]!.url });
  });

  it('pages back towards the newest with ending_before', async () => {
    const oldest = expected.at(-1)!;
    const seen: RequestLogEntry[] = [];
    let before = oldest.id;
    for (;;) {
      const answer = await page({ limit: 30, ending_before: before });
      seen.unshift(...answer.data);
      if (!answer.has_more) break;
      before = answer.data[0]!.id;
    }
    expect(seen.map((entry) => entry.id)).toEqual(expected.slice(0, -1).map((request) => request.id));
  });

  it('filters by status class and path prefix across batches', async () => {
    const failures = await walkOlder(9, { status: '4xx' });
    expect(failures.map((entry) => entry.id)).toEqual(expected.filter((request) => request.status >= 400 && request.status < 500).map((request) => request.id));
    const captures = await walkOlder(4, { path: '/v2/charges/' });
    expect(captures.map((entry) => entry.id)).toEqual(expected.filter((request) => request.url.startsWith('/v2/charges/')).map((request) => request.id));
    const none = await walkOlder(10, { path: '/v2/nothing' });
    expect(none).toEqual([]);
  });

  it('finds an entry by its id alone, the long request too, and not another owner’s', async () => {
    for (const request of [longRequest, expected[0]!, expected[200]!, expected.at(-1)!]) {
      const detail = await store.read((db) => requestLogDetail(db, caller, request.id));
      expect(detail).toMatchObject({
        id: request.id,
        created: request.at,
        request: { query: {}, body: request.body },
        response: JSON.parse(request.response!),
      });
    }
    const other = { ...caller, accountId: 'acct_b' };
    await expect(store.read((db) => requestLogDetail(db, other, expected[0]!.id))).rejects.toMatchObject({ code: 'RESOURCE_MISSING' });
    await expect(store.read((db) => requestLogDetail(db, caller, 'req_0000'))).rejects.toMatchObject({ code: 'RESOURCE_MISSING' });
  });

  it('merges batches whose times interleave, as two instances write them', async () => {
    // Newest by last entry: some single entries, then a run that ends at +900 and, last, one that
    // ends at +850 with entries between the first's: a page must wait for the last run before it
    // lists anything older than +900, wherever the reads' chunks happen to end.
    for (const singleCount of SINGLE_COUNTS) {
      const owner: Caller = { ...caller, accountId: `acct_c${singleCount}` };
      const at = (offset: number) => answered(BASE + offset, { accountId: owner.accountId });
      const singles = Array.from({ length: singleCount }, (_, i) => [at(1_000 + i)]);
      const even = Array.from({ length: 10 }, (_, i) => at(i * 100));
      const odd = Array.from({ length: 9 }, (_, i) => at(50 + i * 100));
      const runs = [...singles, even, odd].map((run) => ({ account_id: owner.accountId, mode: owner.mode, ...batchOf(run.map(requestLogRow)) }));
      await store.write((db) => insertRequestLogBatches(db, runs));
      const all = [...singles.flat(), ...even, ...odd].sort((a, b) => b.at - a.at).map((request) => request.id);
      const listed = async (query: { limit: number; starting_after?: string; ending_before?: string }) =>
        (await store.read((db) => listRequestLogEntries(db, owner, query))).data.map((entry) => entry.id);
      for (const limit of [singleCount + 1, singleCount + 3, singleCount + 8]) expect(await listed({ limit })).toEqual(all.slice(0, limit));
      expect(await listed({ limit: 12, starting_after: all[1]! })).toEqual(all.slice(2, 14));
      expect(await listed({ limit: 5, ending_before: all.at(-1)! })).toEqual(all.slice(-6, -1));
    }
  });

  it('merges interleaved batches towards the newest too (ending_before)', async () => {
    // The mirror image: oldest by first entry, some single entries after the cursor's, then a run
    // that begins at +100 and, last, one that begins at +150 with entries between the first's.
    for (const singleCount of SINGLE_COUNTS) {
      const owner: Caller = { ...caller, accountId: `acct_d${singleCount}` };
      const at = (offset: number) => answered(BASE + offset, { accountId: owner.accountId });
      const cursor = at(0);
      const singles = Array.from({ length: singleCount }, (_, i) => [at(1 + i)]);
      const even = Array.from({ length: 10 }, (_, i) => at(100 + i * 100));
      const odd = Array.from({ length: 9 }, (_, i) => at(150 + i * 100));
      const runs = [[cursor], ...singles, even, odd].map((run) => ({ account_id: owner.accountId, mode: owner.mode, ...batchOf(run.map(requestLogRow)) }));
      await store.write((db) => insertRequestLogBatches(db, runs));
      const newer = [...singles.flat(), ...even, ...odd].sort((a, b) => a.at - b.at).map((request) => request.id);
      for (const limit of [singleCount + 1, singleCount + 3, singleCount + 8]) {
        const page = await store.read((db) => listRequestLogEntries(db, owner, { limit, ending_before: cursor.id }));
        expect(page.data.map((entry) => entry.id)).toEqual(newer.slice(0, limit).reverse());
      }
    }
  });

  it('keeps each batch within RUN_SPAN_MS of receipt times', async () => {
    const spans = await store.read((db) => db.selectFrom('request_log_batches').select(['first_at', 'last_at']).execute());
    expect(spans.length).toBeGreaterThan(6);
    for (const span of spans) expect(Number(span.last_at) - Number(span.first_at)).toBeLessThanOrEqual(RUN_SPAN_MS);
  });
});
