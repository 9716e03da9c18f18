import { sql } from 'kysely';
import type { Db } from '../db.ts';

/** A round trip to the database: ready means it answers, not merely that the process is up. */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
