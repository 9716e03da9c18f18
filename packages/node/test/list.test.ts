import { afterEach, describe, expect, it } from 'vitest';
import { Payframe } from '../src/index.ts';
import { closeFakeApi, fakeApi } from './fake-api.ts';

// Pagination against a stand-in API: what the SDK asks for page after page.
afterEach(closeFakeApi);

const page = (ids: string[], hasMore: boolean) => ({
  status: 200,
  body: { type: 'list', url: '/v2/events', has_more: hasMore, data: ids.map((id) => ({ id })) },
});

describe('ListPromise', () => {
  it('awaited, fetches one page once', async () => {
    const api = await fakeApi([page(['evt_3', 'evt_2'], true)]);
    const payframe = new Payframe('sk_test_x', { apiBase: api.url });
    const list = payframe.events.list({ limit: 2, name: 'charge.captured' });
    expect(api.seen).toHaveLength(0);
    expect((await list).data).toEqual([{ id: 'evt_3' }, { id: 'evt_2' }]);
    expect((await list).has_more).toBe(true);
    expect(api.seen.map((request) => request.url)).toEqual(['/v2/events?limit=2&name=charge.captured']);
  });

  it('iterated, walks every page with starting_after and the same filters, until has_more is false', async () => {
    const api = await fakeApi([page(['evt_5', 'evt_4'], true), page(['evt_3', 'evt_2'], true), page(['evt_1'], false)]);
    const payframe = new Payframe('sk_test_x', { apiBase: api.url });
    const ids: string[] = [];
    for await (const event of payframe.events.list({ limit: 2, charge: 'C1' })) ids.push(event.id);
    expect(ids).toEqual(['evt_5', 'evt_4', 'evt_3', 'evt_2', 'evt_1']);
    expect(api.seen.map((request) => request.url)).toEqual([
      '/v2/events?limit=2&charge=C1',
      '/v2/events?limit=2&charge=C1&starting_after=evt_4',
      '/v2/events?limit=2&charge=C1&starting_after=evt_2',
    ]);
  });

  it('from ending_before, walks towards newer objects with ending_before, yielding them oldest first', async () => {
    const api = await fakeApi([page(['evt_3', 'evt_2'], true), page(['evt_5', 'evt_4'], false)]);
    const payframe = new Payframe('sk_test_x', { apiBase: api.url });
    const list = payframe.events.list({ limit: 2, ending_before: 'evt_1' });
    const ids: string[] = [];
    for await (const event of list) ids.push(event.id);
    expect(ids).toEqual(['evt_2', 'evt_3', 'evt_4', 'evt_5']);
    expect(api.seen.map((request) => request.url)).toEqual(['/v2/events?limit=2&ending_before=evt_1', '/v2/events?limit=2&ending_before=evt_3']);
    // Awaited, the same list is still the API's first page as it came, newest first.
    expect((await list).data).toEqual([{ id: 'evt_3' }, { id: 'evt_2' }]);
  });

  it('stops at an empty page', async () => {
    const api = await fakeApi([page([], true)]);
    const payframe = new Payframe('sk_test_x', { apiBase: api.url });
    const ids: string[] = [];
    for await (const event of payframe.events.list()) ids.push(event.id);
    expect(ids).toEqual([]);
    expect(api.seen).toHaveLength(1);
  });
});
