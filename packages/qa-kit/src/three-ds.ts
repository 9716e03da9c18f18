import { TEST_ONE_TIME_CODE } from '@payframe/contract/test-cards';
import type { Frame, Page } from '@playwright/test';

/** Path of the hosted 3-D Secure page: `{PUBLIC_URL}/3d-secure/{chargeId}?paRes=…`. */
export const THREE_DS_PATH = /\/3d-secure\/[^/?#]+$/;

/** The challenge's iframe in the dialog that `Payframe(pk).handleThreeDS()` opens on the merchant's page. */
export const THREE_DS_FRAME = 'iframe[name="payframe-3ds"]';

/**
 * What the shopper does: press "Complete authentication" / "Fail authentication", type a one-time
 * code, or approve the payment in the (simulated) banking app. On the other scenarios' pages
 * `authenticate` goes on with the issuer's answer (frictionless, rejected, unavailable); on the
 * code page it types the test code and `fail` types wrong codes until 3-D Secure fails; on the
 * bank-app page it approves on the device like `approve-on-device`, and `fail` declines there.
 */
export type ThreeDSAction = 'authenticate' | 'fail' | { otp: string } | 'approve-on-device';

export type CompleteThreeDSOptions = { timeout?: number };

type Challenge = { page: Page; frame: Frame; inDialog: boolean };

/**
 * Finds the 3-D Secure challenge (the hosted page in the browser's window, or in the merchant's
 * dialog), acts on it as a shopper would, and resolves once 3-D Secure has answered: the browser
 * has left for the merchant's `return_url` (Payframe's 303 adds `charge_id` and `status`), or the
 * dialog has closed. A refused one-time code resolves with the code page still shown (its
 * `data-testid="otp-error"` says why). Resolves with the URL the shopper is on.
 */
export async function completeThreeDS(page: Page, action: ThreeDSAction, options: CompleteThreeDSOptions = {}): Promise<URL> {
  const timeout = options.timeout ?? 30_000;
  const challenge = await findChallenge(page, timeout);
  const kind = await pageKind(challenge, timeout);
  switch (kind) {
    case null:
      // Answered before anyone could act (frictionless, with JavaScript).
      return new URL(page.url());
    case 'challenge':
      if (typeof action !== 'string' || action === 'approve-on-device') throw wrongAction(kind, action);
      await challenge.frame.locator(action === 'authenticate' ? '#authenticate' : '#fail').click();
      return settled(challenge, timeout);
    case 'otp':
      if (action === 'approve-on-device') throw wrongAction(kind, action);
      if (action === 'fail') {
        for (;;) if (!(await enterCode(challenge, '000000', timeout))) return settled(challenge, timeout);
      }
      await enterCode(challenge, action === 'authenticate' ? TEST_ONE_TIME_CODE : action.otp, timeout);
      return new URL(page.url());
    case 'oob-waiting':
      if (typeof action !== 'string') throw wrongAction(kind, action);
      await answerOnDevice(challenge, action === 'fail' ? '#deny' : '#approve', timeout);
      return settled(challenge, timeout);
    case 'complete':
      // The dialog's frame already shows the completion page (a frictionless page went on by
      // itself): the loader is closing the dialog.
      return settled(challenge, timeout);
    case 'frictionless':
      // It continues by itself; only a browser without JavaScript needs the button.
      return settled(challenge, Math.min(timeout, 5_000)).catch(async () => {
        await challenge.frame.locator('#continue').click();
        return settled(challenge, timeout);
      });
    case 'rejected':
    case 'auth-unavailable':
      if (action !== 'authenticate') throw wrongAction(kind, action);
      await challenge.frame.locator('#continue').click();
      return settled(challenge, timeout);
    default:
      throw new Error(`completeThreeDS: the 3-D Secure page shows "${kind}", which takes no answer`);
  }
}

/** The hosted page in the window, or the dialog's frame, whichever appears (checkout may navigate meanwhile). */
async function findChallenge(page: Page, timeout: number): Promise<Challenge> {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (THREE_DS_PATH.test(new URL(page.url()).pathname)) return { page, frame: page.mainFrame(), inDialog: false };
    const frame = page.frame({ name: 'payframe-3ds' });
    if (frame) return { page, frame, inDialog: true };
    if (Date.now() > deadline) throw new Error('completeThreeDS: no 3-D Secure page or dialog appeared');
    await page.waitForTimeout(50);
  }
}

/** The challenge page's `data-page`, or null once it has already gone on to the merchant. */
async function pageKind(challenge: Challenge, timeout: number): Promise<string | null> {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (isSettled(challenge)) return null;
    const kind = await challenge.frame
      .locator('main[data-page]')
      .getAttribute('data-page', { timeout: 1_000 })
      .catch(() => null);
    if (kind !== null && !isSettled(challenge)) return kind;
    if (Date.now() > deadline) throw new Error('completeThreeDS: the 3-D Secure page did not load');
  }
}

function isSettled({ page, frame, inDialog }: Challenge): boolean {
  return inDialog ? frame.isDetached() : !THREE_DS_PATH.test(new URL(page.url()).pathname);
}

/**
 * Types a code and submits it; answers whether the page refused it (the code page again, with its
 * error) rather than settling 3-D Secure. Waits for the answer's document, not for a stale one.
 */
async function enterCode({ page, frame }: Challenge, code: string, timeout: number): Promise<boolean> {
  await frame.locator('#otp').fill(code);
  const answered = page.waitForEvent('framenavigated', { predicate: (navigated) => navigated === frame, timeout });
  await frame.locator('#otp-submit').click();
  await answered;
  if (frame.isDetached() || (frame === page.mainFrame() && !THREE_DS_PATH.test(new URL(frame.url()).pathname))) return false;
  const kind = await frame.locator('main[data-page]').getAttribute('data-page', { timeout }).catch(() => null);
  return kind === 'otp';
}

/** The banking app: the device page of the same link, in a second page of the same browser. */
async function answerOnDevice({ page, frame }: Challenge, button: '#approve' | '#deny', timeout: number): Promise<void> {
  const url = new URL(frame.url());
  url.pathname += '/device';
  url.searchParams.delete('display');
  const phone = await page.context().newPage();
  try {
    await phone.goto(url.toString(), { timeout });
    await phone.locator(button).click({ timeout });
    await phone.locator('main[data-page="oob-device-done"]').waitFor({ timeout });
  } finally {
    await phone.close();
  }
}

async function settled({ page, inDialog }: Challenge, timeout: number): Promise<URL> {
  if (inDialog) await page.locator(THREE_DS_FRAME).waitFor({ state: 'detached', timeout });
  else await page.waitForURL((url) => !THREE_DS_PATH.test(url.pathname), { timeout });
  return new URL(page.url());
}

function wrongAction(kind: string, action: ThreeDSAction): Error {
  return new Error(`completeThreeDS: ${JSON.stringify(action)} does not answer the "${kind}" page`);
}
