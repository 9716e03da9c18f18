import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * The page's heading. It takes the focus when the page opens, so a screen reader announces the new
 * page and the next Tab starts from it, as after a full page load.
 */
export function PageTitle({ children, title }: { children: ComponentChildren; title: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Payframe dashboard`;
    heading.current?.focus();
  }, [title]);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}
