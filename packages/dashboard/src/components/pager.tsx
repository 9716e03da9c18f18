import { DASHBOARD_PAGE_SIZE } from '@payframe/contract';
import { useLayoutEffect, useRef } from 'preact/hooks';

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
  const prevDisabled = !newer || first === undefined;
  const nextDisabled = !older || last === undefined;
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const pressed = useRef<HTMLButtonElement | null>(null);
  // The last page disables the button just pressed, and the browser drops its focus to the body:
  // the keyboard's place goes to the other button instead.
  useLayoutEffect(() => {
    const button = pressed.current;
    const other = button === prev.current ? next.current : prev.current;
    if (!button?.disabled || !other || other.disabled) return;
    const focused = document.activeElement;
    if (focused === null || focused === document.body || focused === button) other.focus();
    pressed.current = null;
  }, [prevDisabled, nextDisabled]);
  return (
    <nav class="pager" aria-label="Pages">
      <button
        ref={prev}
        type="button"
        data-testid="page-prev"
        disabled={prevDisabled}
        onClick={() => {
          pressed.current = prev.current;
          if (first) onPage({ ending_before: first });
        }}
      >
        Newer
      </button>
      <button
        ref={next}
        type="button"
        data-testid="page-next"
        disabled={nextDisabled}
        onClick={() => {
          pressed.current = next.current;
          if (last) onPage({ starting_after: last });
        }}
      >
        Older
      </button>
    </nav>
  );
}
