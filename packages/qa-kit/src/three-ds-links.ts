import type { Charge } from '@payframe/contract';
import type { Page } from '@playwright/test';

/** Path of the hosted 3-D Secure page: `{PUBLIC_URL}/3d-secure/{chargeId}?paRes=…`. */
export const THREE_DS_PATH = /\/3d-secure\/[^/?#]+$/;

/** The 3-D Secure status a hosted page reports (the charge's `threedSecure.status`). */
export type ThreeDSStatus = 'PENDING' | 'CHARGEABLE' | 'FAILED' | 'NOT_AVAILABLE' | 'CAPTURED';

/** The issuer's answer (the charge's `threedSecure.transStatus`): null when no issuer answered. */
export type TransStatus = Charge['threedSecure']['transStatus'];

/**
 * A charge whose 3-D Secure this page has loaded: its link, the asking page it last showed
 * (`data-page`: challenge, otp, rejected…), and the status it settled with, once it has.
 */
export type SeenLink = { chargeId: string; link: string | null; kind: string | null; status: ThreeDSStatus | null };

/**
 * What a hosted link says now: still asking (its page kind), or settled with a status and the
 * issuer's answer as the completion page states them.
 */
export type LinkState = { chargeId: string; kind: string; status: ThreeDSStatus | null; transStatus: TransStatus };

/** A page's notes, and the page bodies still being read into them. */
export type ThreeDSNotes = { links: SeenLink[]; reading: Set<Promise<void>> };

const watched = new WeakMap<Page, Promise<ThreeDSNotes>>();

/** The binding through which the merchant page's documents report the dialog's completion message. */
const BINDING = '__payframeQaThreeDSComplete';

/**
 * Runs in every document of the page: the loader's dialog ends with the frame posting
 * `payframe:3ds-complete` to the merchant page; this passes it on to the kit, at once (the
 * dialog's frame is removed a moment later, and the page may navigate away).
 */
const LISTENER = `window.addEventListener('message', (event) => {
  const data = event.data;
  if (data && data.type === 'payframe:3ds-complete' && typeof data.chargeId === 'string' && typeof data.status === 'string' && typeof window.${BINDING} === 'function') {
    window.${BINDING}({ chargeId: data.chargeId, status: data.status });
  }
});`;

/**
 * Starts noting the 3-D Secure pages `page` loads (in its window or in the merchant's dialog) and
 * how they settle (the 303 to the merchant, or the dialog's completion page), so that
 * `completeThreeDS` can still tell what happened to a challenge that settled by itself and was
 * gone before it was called. `fillCard` and `completeThreeDS` call it; calling it again is free.
 * Each page keeps its own notes: tests in parallel workers never see each other's.
 */
export function watchThreeDS(page: Page): Promise<ThreeDSNotes> {
  const existing = watched.get(page);
  if (existing) return existing;
  const started = startWatching(page);
  watched.set(page, started);
  return started;
}

async function startWatching(page: Page): Promise<ThreeDSNotes> {
  const notes: ThreeDSNotes = { links: [], reading: new Set() };
  const seen = notes.links;
  // The dialog's outcome as the loader receives it (documents loaded from now on: the dialog opens
  // on a page after the card was entered). Refused if the test exposed the name itself: the
  // responses below still tell most of it.
  await page
    .exposeBinding(BINDING, (_source, data: { chargeId: string; status: ThreeDSStatus }) => {
      const entry = entryOf(seen, data.chargeId);
      entry.status ??= data.status;
    })
    .then(() => page.addInitScript(LISTENER))
    .catch(() => undefined);
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!THREE_DS_PATH.test(url.pathname)) return;
    const entry = entryOf(seen, decodeURIComponent(url.pathname.split('/').pop() ?? ''));
    if (response.request().method() === 'GET' && url.searchParams.has('paRes')) entry.link = linkOf(url);
    const location = response.headers().location;
    if (response.status() === 303 && location) {
      entry.status ??= new URL(location, url).searchParams.get('status') as ThreeDSStatus | null;
      return;
    }
    // Read from the body: by the time a test looks, the page may have gone on. Readers await
    // `reading` first, or a dialog that settled a moment ago would look still pending.
    const read = response.text().then(
      (html) => {
        const kind = attribute(html, 'data-page');
        if (kind === 'complete') entry.status ??= attribute(html, 'data-status') as ThreeDSStatus | null;
        else if (kind !== null && ASKING.has(kind)) entry.kind = kind;
      },
      () => undefined,
    );
    notes.reading.add(read);
    void read.finally(() => notes.reading.delete(read));
  });
  return notes;
}

/** The notes once every page body seen so far has been read (bounded: a body that never comes is skipped). */
export async function readNotes(notes: ThreeDSNotes, timeout: number): Promise<SeenLink[]> {
  const limit = new Promise<void>((resolve) => setTimeout(resolve, Math.min(timeout, 2_000)).unref?.());
  await Promise.race([Promise.all([...notes.reading]), limit]);
  return notes.links;
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
  if (kind !== 'complete') return { chargeId, kind, status: null, transStatus: null };
  return { chargeId, kind, status: attribute(html, 'data-status') as ThreeDSStatus | null, transStatus: attribute(html, 'data-trans-status') as TransStatus };
}

/** The first value of an attribute in one of our hosted pages (they escape attribute values; ids and statuses have no entities). */
function attribute(html: string, name: string): string | null {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(html)?.[1] ?? null;
}
