import { DASHBOARD_PAGE_SIZE } from '@payframe/contract';

/** A keyset page: older than one object, newer than another, or the newest. */
export type Cursor = { starting_after?: string; ending_before?: string };

type Props = {
  cursor: Cursor;
  hasMore: boolean;
  /** The page's ids, newest first. */
  ids: string[];
  onPage: (cursor: Cursor) => void;
};

export const PAGE_QUERY = { limit: DASHBOARD_PAGE_SIZE };

/** `has_more` speaks of the direction the page was fetched in; the other direction is known from the cursor. */
export function Pager({ cursor, hasMore, ids, onPage }: Props) {
  const newer = cursor.ending_before !== undefined ? hasMore : cursor.starting_after !== undefined;
  const older = cursor.ending_before !== undefined ? ids.length > 0 : hasMore;
  const first = ids[0];
  const last = ids[ids.length - 1];
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" data-testid="page-prev" disabled={!newer || first === undefined} onClick={() => first && onPage({ ending_before: first })}>
        Newer
      </button>
      <button type="button" data-testid="page-next" disabled={!older || last === undefined} onClick={() => last && onPage({ starting_after: last })}>
        Older
      </button>
    </nav>
  );
}
