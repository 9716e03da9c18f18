import type { EventName } from '@payframe/contract';
import type { Db } from '../db.ts';
import type { Owner } from './owned.ts';

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
