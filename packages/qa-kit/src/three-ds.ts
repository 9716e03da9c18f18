import { TEST_ONE_TIME_CODE } from '@payframe/contract/test-cards';
import type { Frame, Page } from '@playwright/test';
import {
  linkOf,
  probeLink,
  readNotes,
  type SeenLink,
  THREE_DS_PATH,
  type ThreeDSNotes,
  type ThreeDSStatus,
  type TransStatus,
  watchThreeDS,
} from './three-ds-links.ts';

export { THREE_DS_PATH, type ThreeDSStatus, type TransStatus, watchThreeDS } from './three-ds-links.ts';

/** The challenge's iframe in the dialog that `Payframe(pk).handleThreeDS()` opens on the merchant's page. */
export const THREE_DS_FRAME = 'iframe[name="payframe-3ds"]';

/** Less than Playwright's default test timeout (30 s), so that a stuck challenge fails as itself. */
export const COMPLETE_THREE_DS_TIMEOUT_MS = 10_000;

/**
 * What the shopper does: press "Complete authentication" / "Fail authentication", type a one-time
 * code, or approve the payment in the (simulated) banking app. On the code page `authenticate`
 * types the test code and `fail` types wrong codes until 3-D Secure fails; on the bank-app page
 * `authenticate` approves on the device like `approve-on-device`, and `fail` declines there. The
 * pages where the issuer has already answered (frictionless, rejected, unavailable) take any
 * action: the shopper only goes on.
 */
export type ThreeDSAction = 'authenticate' | 'fail' | { otp: string } | 'approve-on-device';

export type CompleteThreeDSOptions = { timeout?: number };

/**
 * How 3-D Secure ended: the charge, its 3-D Secure status (`PENDING` only after a refused one-time
 * code), and the issuer's `transStatus` (`Y`, `N`, `R`, `U`; null while pending or for a card
 * that needs no authentication), as `charge.threedSecure` says them.
 */
export type ThreeDSResult = { chargeId: string; status: ThreeDSStatus; transStatus: TransStatus };

type Challenge = { page: Page; frame: Frame; inDialog: boolean; link: string };

/**
 * Finds the 3-D Secure challenge (the hosted page in the browser's window, or in the merchant's
 * dialog), acts on it as a shopper would, and resolves once 3-D Secure has answered. A challenge
 * that has already settled (frictionless, answered on the device or by the test helper, or gone
 * before this call, the window back at the merchant's return URL) resolves at once with its
 * outcome; nothing is clicked. Gives up after `timeout` (10 s) with an error that says what the
 * page showed.
 */
export async function completeThreeDS(page: Page, action: ThreeDSAction, options: CompleteThreeDSOptions = {}): Promise<ThreeDSResult> {
  const answered = reported.get(page) ?? new Set<string>();
  reported.set(page, answered);
  const found = await completeOnce(page, action, options.timeout ?? COMPLETE_THREE_DS_TIMEOUT_MS, answered);
  answered.add(found.chargeId);
  return found;
}

/**
 * The charges whose outcome a call has answered, per page: a shopper's next payment in the same
 * page is a new challenge to wait for, not the last one's outcome again.
 */
const reported = new WeakMap<Page, Set<string>>();

async function completeOnce(page: Page, action: ThreeDSAction, timeout: number, answered: ReadonlySet<string>): Promise<ThreeDSResult> {
  const deadline = Date.now() + timeout;
  const notes = await watchThreeDS(page);
  const left = () => Math.max(1, deadline - Date.now());
  for (;;) {
    const found = await findChallenge(page, notes, deadline, timeout, answered);
    if ('status' in found) return found;
    const state = await probeLink(page, found.link, left());
    // Answered elsewhere (the device, the test helper, another tab): the page shown is stale.
    if (state?.status) return settledResult(await readNotes(notes, left()), state.chargeId, state.status, state.transStatus);
    if (state?.kind) {
      const kind = state.kind;
      try {
        await act(found, kind, action, left());
        return outcome(found, await readNotes(notes, left()), kind, left());
      } catch (error) {
        // The kit's own errors (an action that does not answer this page) already say what it saw.
        if (error instanceof Error && error.message.startsWith('completeThreeDS:')) throw error;
        // Playwright's own timeout says which locator, not what the shopper's page was doing.
        const cause = error instanceof Error ? error.message.split('\n')[0] : String(error);
        const title = await page.title().catch(() => '');
        const where = found.inDialog ? `in the dialog of the page at ${page.url()}` : `as the page at ${page.url()}`;
        throw new Error(
          `completeThreeDS: the 3-D Secure page at ${found.link.split('?')[0]} showed "${kind}" and did not answer within ${timeout} ms (${cause}). Saw: the challenge ${where} ("${title}").`,
        );
      }
    }
    if (Date.now() > deadline) throw new Error(`completeThreeDS: the 3-D Secure page at ${found.link.split('?')[0]} did not answer within ${timeout} ms`);
  }
}

async function act(challenge: Challenge, kind: string, action: ThreeDSAction, timeout: number): Promise<void> {
  const { frame } = challenge;
  switch (kind) {
    case 'challenge':
      if (typeof action !== 'string' || action === 'approve-on-device') throw wrongAction(kind, action);
      await frame.locator(action === 'authenticate' ? '#authenticate' : '#fail').click({ timeout });
      return settled(challenge, timeout);
    case 'otp':
      if (action === 'approve-on-device') throw wrongAction(kind, action);
      if (action === 'fail') {
        while (await enterCode(challenge, '000000', timeout));
        return;
      }
      // A refused code leaves the code page with its error; the outcome then says PENDING.
      await enterCode(challenge, action === 'authenticate' ? TEST_ONE_TIME_CODE : action.otp, timeout);
      return;
    case 'oob-waiting':
      if (typeof action !== 'string') throw wrongAction(kind, action);
      await answerOnDevice(challenge, action === 'fail' ? '#deny' : '#approve', timeout);
      return settled(challenge, timeout);
    case 'frictionless':
      // It continues by itself; only a browser without JavaScript needs the button.
      return settled(challenge, Math.min(timeout, 3_000)).catch(async () => {
        await frame
          .locator('#continue')
          .click({ timeout })
          .catch(() => undefined);
        return settled(challenge, timeout);
      });
    case 'rejected':
    case 'auth-unavailable':
      // The issuer has answered already: whatever the test meant to answer, the shopper only goes on.
      await frame.locator('#continue').click({ timeout });
      return settled(challenge, timeout);
    default:
      throw new Error(`completeThreeDS: the 3-D Secure page shows "${kind}", which takes no answer`);
  }
}

/**
 * The hosted page in the window or the dialog's frame, whichever appears (checkout may navigate
 * meanwhile); or, when neither is shown, the outcome of the last 3-D Secure link this page
 * loaded, if it has settled: it went on by itself before anyone looked. A page that loaded its
 * link before the kit watched it may already be back at the merchant's return URL, which names
 * the charge and its 3-D Secure status, or still be the merchant's page whose dialog has closed,
 * whose link its resource timing still holds.
 */
async function findChallenge(
  page: Page,
  notes: ThreeDSNotes,
  deadline: number,
  timeout: number,
  answered: ReadonlySet<string>,
): Promise<Challenge | ThreeDSResult> {
  for (;;) {
    const shown = shownChallenge(page);
    if (shown) return shown;
    const seen = await readNotes(notes, Math.max(1, deadline - Date.now()));
    // Only the last link counts, and not once a call has answered its charge: an earlier one is stale.
    const last = seen.at(-1);
    const fresh = last && !answered.has(last.chargeId) ? last : undefined;
    if (fresh?.link) {
      const state = await probeLink(page, fresh.link, Math.max(1, deadline - Date.now()));
      if (state?.status && !shownChallenge(page)) return settledResult(seen, state.chargeId, state.status, state.transStatus);
    }
    if (fresh?.status) return settledResult(seen, fresh.chargeId, fresh.status, undefined);
    const returned = returnedTo(page);
    if (returned && !answered.has(returned.chargeId) && !seen.some((entry) => entry.chargeId === returned.chargeId)) {
      return result(returned.chargeId, returned.status, null, undefined);
    }
    const loaded = await lastLinkLoaded(page);
    if (loaded && !seen.some((entry) => loaded.includes(`/${encodeURIComponent(entry.chargeId)}?`))) {
      const state = await probeLink(page, loaded, Math.max(1, deadline - Date.now()));
      if (state?.status && !answered.has(state.chargeId) && !shownChallenge(page)) return settledResult(seen, state.chargeId, state.status, state.transStatus);
    }
    if (Date.now() > deadline) throw new Error(`completeThreeDS: nothing to answer within ${timeout} ms. ${await describeSeen(page, seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The last 3-D Secure link the page's document loaded, as its resource timing recorded it: a
 * dialog's frame is recorded when it loads and stays recorded after the dialog has closed, so a
 * dialog that settled and closed before anything watched the page can still be read.
 */
async function lastLinkLoaded(page: Page): Promise<string | null> {
  const names = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name)).catch(() => [] as string[]);
  for (const name of names.reverse()) {
    const url = new URL(name);
    if (THREE_DS_PATH.test(url.pathname) && url.searchParams.has('paRes')) return linkOf(url);
  }
  return null;
}

function shownChallenge(page: Page): Challenge | null {
  if (THREE_DS_PATH.test(new URL(page.url()).pathname)) return { page, frame: page.mainFrame(), inDialog: false, link: linkOf(new URL(page.url())) };
  const frame = page.frame({ name: 'payframe-3ds' });
  if (frame && !frame.isDetached() && THREE_DS_PATH.test(new URL(frame.url(), 'about:blank').pathname)) {
    return { page, frame, inDialog: true, link: linkOf(new URL(frame.url())) };
  }
  return null;
}

/** What the test sees, for the error: where the page is, what it shows, and which links it loaded. */
async function describeSeen(page: Page, seen: SeenLink[]): Promise<string> {
  const title = await page.title().catch(() => '');
  const dialog = page.frame({ name: 'payframe-3ds' })
    ? 'a 3-D Secure dialog frame that has not loaded a hosted page'
    : `no 3-D Secure dialog (${THREE_DS_FRAME})`;
  const links =
    seen.length === 0
      ? 'this page loaded no 3-D Secure link since the kit started watching it (fillCard or completeThreeDS)'
      : `the last 3-D Secure page it loaded (charge ${seen.at(-1)?.chargeId}, "${seen.at(-1)?.kind}") is still pending and no longer shown`;
  return `Saw: the page at ${page.url()} ("${title}"), not a hosted 3-D Secure page; ${dialog}; ${links}.`;
}

/**
 * After acting: the status it settled with (noted from the 303 or the completion page: a merchant
 * that captures at once must not turn it into CAPTURED), else what the link says now (PENDING
 * after a refused code); the issuer's answer as the link's completion page states it.
 */
async function outcome(challenge: Challenge, seen: SeenLink[], kind: string, timeout: number): Promise<ThreeDSResult> {
  const chargeId = decodeURIComponent(new URL(challenge.link).pathname.split('/').pop() ?? '');
  const noted = seen.find((entry) => entry.chargeId === chargeId);
  const state = await probeLink(challenge.page, challenge.link, timeout);
  const answered = state?.status ? state.transStatus : undefined;
  return result(chargeId, noted?.status ?? state?.status ?? 'PENDING', noted?.kind ?? kind, answered);
}

/** A challenge that settled before it was answered here, with the scenario page it showed if one was seen. */
function settledResult(seen: SeenLink[], chargeId: string, status: ThreeDSStatus, transStatus: TransStatus | undefined): ThreeDSResult {
  const noted = seen.find((entry) => entry.chargeId === chargeId);
  return result(chargeId, noted?.status ?? status, noted?.kind ?? null, transStatus);
}

const STATUSES: ReadonlySet<string> = new Set<ThreeDSStatus>(['PENDING', 'CHARGEABLE', 'FAILED', 'NOT_AVAILABLE', 'CAPTURED']);

/** The charge and 3-D Secure status the hosted page's 303 put in the merchant's return URL, if the window is there. */
function returnedTo(page: Page): { chargeId: string; status: ThreeDSStatus } | null {
  const query = new URL(page.url()).searchParams;
  const chargeId = query.get('charge_id');
  const status = query.get('status');
  return chargeId && status && STATUSES.has(status) ? { chargeId, status: status as ThreeDSStatus } : null;
}

/**
 * The issuer's answer: as the link's completion page stated it when it was read, else from the
 * status and the page the scenario showed (FAILED is R on the rejecting issuer's page, N
 * otherwise; NOT_AVAILABLE after a challenge is U).
 */
function result(chargeId: string, noted: ThreeDSStatus, kind: string | null, answered: TransStatus | undefined): ThreeDSResult {
  // Read after the merchant captured: capture needs CHARGEABLE, or NOT_AVAILABLE from an unavailable issuer.
  const status: ThreeDSStatus = noted === 'CAPTURED' ? (kind === 'auth-unavailable' ? 'NOT_AVAILABLE' : 'CHARGEABLE') : noted;
  if (answered !== undefined && status !== 'PENDING') return { chargeId, status, transStatus: answered };
  const transStatus =
    status === 'CHARGEABLE'
      ? 'Y'
      : status === 'FAILED'
        ? kind === 'rejected'
          ? 'R'
          : 'N'
        : status === 'NOT_AVAILABLE'
          ? kind === 'not-needed'
            ? null
            : 'U'
          : null;
  return { chargeId, status, transStatus };
}

/**
 * Types a code and submits it; answers whether the page refused it (the code page again, with its
 * error) rather than settling 3-D Secure. Waits for the answer's document, not for a stale one.
 */
async function enterCode({ page, frame }: Challenge, code: string, timeout: number): Promise<boolean> {
  await frame.locator('#otp').fill(code, { timeout });
  const answered = page.waitForEvent('framenavigated', { predicate: (navigated) => navigated === frame, timeout });
  // Should the click fail, its error is the one reported: this wait must not reject unheard.
  answered.catch(() => undefined);
  await frame.locator('#otp-submit').click({ timeout });
  await answered;
  if (frame.isDetached() || (frame === page.mainFrame() && !THREE_DS_PATH.test(new URL(frame.url()).pathname))) return false;
  const kind = await frame
    .locator('main[data-page]')
    .getAttribute('data-page', { timeout })
    .catch(() => null);
  return kind === 'otp';
}

/** The banking app: the device page of the same link, in a second page of the same browser. */
async function answerOnDevice({ page, link }: Challenge, button: '#approve' | '#deny', timeout: number): Promise<void> {
  const url = new URL(link);
  url.pathname += '/device';
  const phone = await page.context().newPage();
  try {
    await phone.goto(url.toString(), { timeout });
    await phone.locator(button).click({ timeout });
    await phone.locator('main[data-page="oob-device-done"]').waitFor({ timeout });
  } finally {
    await phone.close();
  }
}

/** The challenge has gone: the window left the hosted page, or the dialog's frame was removed. */
async function settled({ page, inDialog }: Challenge, timeout: number): Promise<void> {
  if (inDialog) await page.locator(THREE_DS_FRAME).waitFor({ state: 'detached', timeout });
  else await page.waitForURL((url) => !THREE_DS_PATH.test(url.pathname), { timeout });
}

function wrongAction(kind: string, action: ThreeDSAction): Error {
  return new Error(`completeThreeDS: ${JSON.stringify(action)} does not answer the "${kind}" page`);
}
