import { type SqlBool, sql } from 'kysely';

/** Where an object sits in a newest-first list: its creation time, then the column that breaks ties. */
export type Position = { createdAt: number; tie: string | number };

/**
 * One page of a newest-first list, never by OFFSET: `older` reads the objects just older than
 * the cursor (descending), `newer` those just newer (ascending, turned round by the caller).
 * `fetch` is one more than the page, to tell whether more remain.
 */
export type PageWindow = { cursor: ({ direction: 'older' | 'newer' } & Position) | null; fetch: number };

/** Rows beyond the cursor, as a range on the (…, created_at, tie) index every list has. */
export function beyondCursor(window: PageWindow, tieColumn: 'id' | 'seq') {
  const { cursor } = window;
  if (!cursor) return sql<SqlBool>`1 = 1`;
  const older = cursor.direction === 'older';
  const bound = sql.raw(older ? '<=' : '>=');
  const strict = sql.raw(older ? '<' : '>');
  return sql<SqlBool>`created_at ${bound} ${cursor.createdAt} and (created_at ${strict} ${cursor.createdAt} or ${sql.ref(tieColumn)} ${strict} ${cursor.tie})`;
}

export function windowOrder(window: PageWindow): 'asc' | 'desc' {
  return window.cursor?.direction === 'newer' ? 'asc' : 'desc';
}
