import type { EventName } from '@payframe/contract';
import type { Db } from '../db.ts';
import type { WebhookEndpointsTable } from '../schema.ts';
import { type Owner, ownedBy } from './owned.ts';

/** The ids of the owner's live (not deleted) endpoints that take events of this name. */
export async function endpointsTaking(db: Db, owner: Owner, name: EventName): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'events'])
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.filter((row) => (JSON.parse(row.events) as string[]).includes(name)).map((row) => row.id);
}

export async function insertEndpoint(db: Db, endpoint: WebhookEndpointsTable): Promise<void> {
  await db.insertInto('webhook_endpoints').values(endpoint).execute();
}

/** The owner's endpoint with this id; a deleted one no longer exists for the API. */
export function findEndpoint(db: Db, owner: Owner, id: string): Promise<WebhookEndpointsTable | undefined> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where((eb) => eb.and(ownedBy(owner, id)))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Sets `deleted_at` once; answers whether this call deleted it. */
export async function markEndpointDeleted(db: Db, owner: Owner, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ deleted_at: now })
    .where((eb) => eb.and(ownedBy(owner, id)))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export type EndpointPage = { rows: WebhookEndpointsTable[]; hasMore: boolean };

/**
 * One page of the owner's endpoints, newest first (creation time, then id). `after` gives the
 * ones just older than that endpoint, `before` the ones just newer; keyset, never OFFSET.
 */
export async function endpointPage(
  db: Db,
  owner: Owner,
  page: { limit: number; after?: WebhookEndpointsTable | undefined; before?: WebhookEndpointsTable | undefined },
): Promise<EndpointPage> {
  const cursor = page.after ?? page.before;
  const newer = page.before !== undefined;
  let query = db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .where('deleted_at', 'is', null);
  if (cursor) {
    const beyond = newer ? '>' : '<';
    query = query.where((eb) =>
      eb.or([
        eb('created_at', beyond, cursor.created_at),
        eb.and([eb('created_at', '=', cursor.created_at), eb('id', beyond, cursor.id)]),
      ]),
    );
  }
  const direction = newer ? 'asc' : 'desc';
  const rows = await query.orderBy('created_at', direction).orderBy('id', direction).limit(page.limit + 1).execute();
  const hasMore = rows.length > page.limit;
  const kept = rows.slice(0, page.limit);
  return { rows: newer ? kept.reverse() : kept, hasMore };
}
