import { type SqlBool, sql } from 'kysely';

/** Where an object sits in a newest-first list: its creation time, then its id, which breaks ties. */
export type Position = { createdAt: number; tie: string };

/**
 * One page of a newest-first list, never by OFFSET: `older` reads the objects just older than
 * the cursor (descending), `newer` those just newer (ascending, turned round by the caller).
 * `fetch` is one more than the page, to tell whether more remain.
 */
export type PageWindow = { cursor: ({ direction: 'older' | 'newer' } & Position) | null; fetch: number };

/** Creation times in milliseconds: from `gte` included to `lt` excluded. */
export type CreatedRange = { gte?: number | undefined; lt?: number | undefined };

/** Rows beyond the cursor, as a range on the (…, created_at, id) index every list has. */
export function beyondCursor(window: PageWindow) {
  const { cursor } = window;
  if (!cursor) return sql<SqlBool>`1 = 1`;
  const older = cursor.direction === 'older';
  const bound = sql.raw(older ? '<=' : '>=');
  const strict = sql.raw(older ? '<' : '>');
  return sql<SqlBool>`created_at ${bound} ${cursor.createdAt} and (created_at ${strict} ${cursor.createdAt} or id ${strict} ${cursor.tie})`;
}

/**
 * Rows beyond the cursor and within the creation range. SQLite ranges an index on one bound of
 * created_at a side, and may pick the range's over the cursor's: a page deep in a created filter
 * then scans every row from the range's end down to the cursor. So on the cursor's side only the
 * tighter bound is written: the range's when it excludes the cursor, else the cursor's (which then
 * implies the range's).
 */
export function withinWindow(window: PageWindow, created: CreatedRange | undefined) {
  const { cursor } = window;
  let { gte, lt } = created ?? {};
  const conditions = [];
  if (cursor) {
    const older = cursor.direction === 'older';
    const rangeIsTighter = older ? lt !== undefined && lt <= cursor.createdAt : gte !== undefined && gte > cursor.createdAt;
    if (!rangeIsTighter) {
      if (older) lt = undefined;
      else gte = undefined;
      conditions.push(beyondCursor(window));
    }
  }
  if (gte !== undefined) conditions.push(sql<SqlBool>`created_at >= ${gte}`);
  if (lt !== undefined) conditions.push(sql<SqlBool>`created_at < ${lt}`);
  return conditions.length === 0 ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${sql.join(conditions, sql` and `)}`;
}

export function windowOrder(window: PageWindow): 'asc' | 'desc' {
  return window.cursor?.direction === 'newer' ? 'asc' : 'desc';
}
