import type { JSX } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** A whole page: every text and attribute value is escaped by the renderer, none by hand. */
export function renderDocument(page: JSX.Element): string {
  return `<!doctype html>${renderToString(page)}`;
}

/**
 * Data for the page's script, in a JSON block: never executed, so the CSP needs no inline script.
 * The one raw string on any page: JSON with every `<` escaped cannot close the script element.
 */
export function JsonBlock({ id, data }: { id: string; data: unknown }) {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return <script id={id} type="application/json" dangerouslySetInnerHTML={{ __html: json }} />;
}
