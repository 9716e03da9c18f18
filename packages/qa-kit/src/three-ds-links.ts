import type { Page } from '@playwright/test';

/** Path of the hosted 3-D Secure page: `{PUBLIC_URL}/3d-secure/{chargeId}?paRes=…`. */
export const THREE_DS_PATH = /\/3d-secure\/[^/?#]+$/;

/** The 3-D Secure status a hosted page reports (the charge's `threedSecure.status`). */
export type ThreeDSStatus = 'PENDING' | 'CHARGEABLE' | 'FAILED' | 'NOT_AVAILABLE' | 'CAPTURED';

/**
 * A charge whose 3-D Secure this page has loaded: its link, the asking page it last showed
 * (`data-page`: challenge, otp, rejected…), and the status it settled with, once it has.
 */
export type SeenLink = { chargeId: string; link: string | null; kind: string | null; status: ThreeDSStatus | null };

/** What a hosted link says now: still asking (its page kind), or settled with a status. */
export type LinkState = { chargeId: string; kind: string; status: ThreeDSStatus | null };

const watched = new WeakMap<Page, SeenLink[]>();

/**
 * Starts noting the 3-D Secure pages `page` loads (in its window or in the merchant's dialog) and
 * how they settle (the 303 to the merchant, or the dialog's completion page), so that
 * `completeThreeDS` can still tell what happened to a challenge that settled by itself and was
 * gone before it was called. `fillCard` and `completeThreeDS` call it; calling it again is free.
 * Each page keeps its own notes: tests in parallel workers never see each other's.
 */
export function watchThreeDS(page: Page): SeenLink[] {
  const existing = watched.get(page);
  if (existing) return existing;
  const seen: SeenLink[] = [];
  watched.set(page, seen);
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!THREE_DS_PATH.test(url.pathname)) return;
    const entry = entryOf(seen, decodeURIComponent(url.pathname.split('/').pop() ?? ''));
    if (response.request().method() === 'GET' && url.searchParams.has('paRes')) entry.link = linkOf(url);
    const location = response.headers()['location'];
    if (response.status() === 303 && location) {
      entry.status = (new URL(location, url).searchParams.get('status') as ThreeDSStatus | null) ?? entry.status;
      return;
    }
    // Read from the body: by the time a test looks, the page may have gone on.
    response.text().then(
      (html) => {
        const kind = attribute(html, 'data-page');
        if (kind === 'complete') entry.status = attribute(html, 'data-status') as ThreeDSStatus | null;
        else if (kind !== null && ASKING.has(kind)) entry.kind = kind;
      },
      () => undefined,
    );
  });
  return seen;
}

/** The pages that say the card's scenario; the notices shown after (completed, unavailable…) do not. */
const ASKING = new Set(['challenge', 'otp', 'oob-waiting', 'frictionless', 'rejected', 'auth-unavailable', 'not-needed']);

function entryOf(seen: SeenLink[], chargeId: string): SeenLink {
  const found = seen.find((entry) => entry.chargeId === chargeId);
  if (found) return found;
  const entry: SeenLink = { chargeId, link: null, kind: null, status: null };
  seen.push(entry);
  return entry;
}

/** The link without its display: the same charge and paRes, however it was shown. */
export function linkOf(url: URL): string {
  const link = new URL(url);
  link.searchParams.delete('display');
  link.hash = '';
  return link.toString();
}

/**
 * Reads what a link shows now, without changing anything: a GET in the dialog's display answers
 * the asking page while 3-D Secure is pending and the completion page (its charge id and status)
 * once it has settled, and never spends the bank-app card's one trip back to the merchant.
 */
export async function probeLink(page: Page, link: string, timeout: number): Promise<LinkState | null> {
  const url = new URL(link);
  url.searchParams.set('display', 'iframe');
  const response = await page.request.get(url.toString(), { maxRedirects: 0, timeout, failOnStatusCode: false }).catch(() => null);
  if (!response) return null;
  const html = await response.text().catch(() => '');
  const kind = attribute(html, 'data-page');
  if (kind === null) return null;
  const chargeId = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  return { chargeId, kind, status: kind === 'complete' ? (attribute(html, 'data-status') as ThreeDSStatus | null) : null };
}

/** The first value of an attribute in one of our hosted pages (they escape attribute values; ids and statuses have no entities). */
function attribute(html: string, name: string): string | null {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(html)?.[1] ?? null;
}
