import type { Db } from '../db.ts';
import type { EventsTable } from '../schema.ts';
import { type Owner, ownedBy } from './owned.ts';

export type NewEvent = Omit<EventsTable, 'seq'>;

export async function insertEvent(db: Db, event: NewEvent): Promise<void> {
  await db.insertInto('events').values(event).execute();
}

export function findEvent(db: Db, owner: Owner, id: string) {
  return db
    .selectFrom('events')
    .selectAll()
    .where((eb) => eb.and(ownedBy(owner, id)))
    .executeTakeFirst();
}
