import type { Db } from '../db.ts';
import type { WebhookEndpointsTable } from '../schema.ts';
import { beyondCursor, type PageWindow, windowOrder } from './keyset.ts';
import { type Owner, ownedBy } from './owned.ts';

/** What the delivery worker needs of endpoints, deleted and disabled ones included: a delivery queued before is still sent, to the URL the endpoint has now. */
export function endpointTargets(db: Db, ids: string[]) {
  return db.selectFrom('webhook_endpoints').select(['id', 'url', 'mode', 'secret_sealed']).where('id', 'in', ids).execute();
}

/** How many endpoints the owner has that are not deleted. */
export async function countEndpoints(db: Db, owner: Owner): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
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

export type EndpointChanges = Partial<Pick<WebhookEndpointsTable, 'url' | 'events' | 'description' | 'disabled_at'>>;

/** Changes the owner's endpoint unless it is deleted; answers the endpoint as it now is. */
export async function updateEndpoint(db: Db, owner: Owner, id: string, changes: EndpointChanges): Promise<WebhookEndpointsTable | undefined> {
  if (Object.keys(changes).length > 0) {
    await db
      .updateTable('webhook_endpoints')
      .set(changes)
      .where((eb) => eb.and(ownedBy(owner, id)))
      .where('deleted_at', 'is', null)
      .execute();
  }
  return findEndpoint(db, owner, id);
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

/** One page of the owner's live endpoints, newest first, through the lists' keyset window (keyset.ts). */
export function endpointPage(db: Db, owner: Owner, window: PageWindow): Promise<WebhookEndpointsTable[]> {
  const order = windowOrder(window);
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('account_id', '=', owner.accountId)
    .where('mode', '=', owner.mode)
    .where('deleted_at', 'is', null)
    .where(beyondCursor(window))
    .orderBy('created_at', order)
    .orderBy('id', order)
    .limit(window.fetch)
    .execute();
}
