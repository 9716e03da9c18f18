import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { watchThreeDS } from './three-ds-links.ts';

/** What a shopper types. Only the number is needed: the rest default to a valid future card. */
export type CardInput = { number: string; expiry?: string; cvc?: string; name?: string; email?: string; postalCode?: string };

/** The page (one card widget on it), the element the widget was mounted on (or any ancestor), or a FrameLocator. */
export type CardTarget = Page | Locator | FrameLocator;

export const CARD_FRAME = 'iframe[name="payframe-card"]';

/** MMYY (`1229`), December three years ahead: never expired, whatever today is. */
export function futureExpiry(): string {
  return `12${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;
}

/** The Payframe iframe element for a target: a FrameLocator of that iframe, or the one inside a page, host or outer frame. */
async function cardIframe(target: CardTarget): Promise<Locator> {
  if ('owner' in target) {
    const owner = target.owner();
    return (await owner.getAttribute('name')) === 'payframe-card' ? owner : target.locator(CARD_FRAME);
  }
  return target.locator(CARD_FRAME);
}

/**
 * Enters a card into the Payframe widget once the widget says it is ready, each field as one
 * input, as a shopper's paste or the browser's autofill does: the widget formats and detects the
 * brand on every input event, whole values included. All fields go in one round trip to the
 * frame, so a card takes well under a second on a warm page, even on a loaded machine. Fields are
 * found by their `data-testid`s: `card-number`, `card-expiry`, `card-cvc`, `card-name`, and
 * `email` / `postal-code` when given. It also starts `watchThreeDS` on the page, so that
 * `completeThreeDS` knows a challenge that settles by itself. `timeout` bounds the wait for the
 * widget to be ready (Playwright's expect timeout by default).
 */
export async function fillCard(target: CardTarget, card: CardInput, options: { timeout?: number } = {}): Promise<FrameLocator> {
  const iframe = await cardIframe(target);
  await watchThreeDS(iframe.page());
  // The loader marks the element it mounted on once the frame has connected and rendered.
  await expect(
    iframe.locator('xpath=..'),
    'fillCard: the card widget never became ready (no data-payframe-ready on the element it was mounted on): is the widget on this page, and its Payframe server reachable?',
  ).toHaveAttribute('data-payframe-ready', '', options);
  const frame = iframe.contentFrame();
  const values: Array<[string, string]> = [
    ['card-number', card.number],
    ['card-expiry', card.expiry ?? futureExpiry()],
    ['card-cvc', card.cvc ?? '123'],
    ['card-name', card.name ?? 'Ada Lovelace'],
  ];
  if (card.email !== undefined) values.push(['email', card.email]);
  if (card.postalCode !== undefined) values.push(['postal-code', card.postalCode]);
  // One protocol call: evaluateAll resolves the frame and runs in it at once, where evaluate would
  // first wait for an element handle, then evaluate through it, then release it. The frame has
  // rendered (the host says ready), so there is nothing to wait for.
  const problem = await frame.locator(':root').evaluateAll((roots, fields) => {
    const root = roots[0];
    if (!root) return 'the card frame is no longer on the page';
    for (const [testId, value] of fields) {
      const input = root.querySelector<HTMLInputElement>(`input[data-testid="${testId}"]`);
      if (!input) return `the widget shows no field data-testid="${testId}" (is it enabled in mount options?)`;
      // What a paste does: focus (the previous field blurs, as the widget expects), the new value, one input event.
      input.focus();
      input.value = value;
      input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste', data: value }));
    }
    return null;
  }, values);
  if (problem !== null) throw new Error(`fillCard: ${problem}`);
  return frame;
}
