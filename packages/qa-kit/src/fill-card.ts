import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { watchThreeDS } from './three-ds-links.ts';

/** What a shopper types. Only the number is needed: the rest default to a valid future card. */
export type CardInput = { number: string; expiry?: string; cvc?: string; name?: string; email?: string; postalCode?: string };

/** The page (one card widget on it), the element the widget was mounted on (or any ancestor), or a FrameLocator. */
export type CardTarget = Page | Locator | FrameLocator;

export const CARD_FRAME = 'iframe[name="payframe-card"]';

/** MM/YY, three years ahead: never expired, whatever today is. */
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
 * input (as a shopper's paste or autofill does: the widget formats and detects the brand on every
 * input, whole values included), so a card takes well under a second on a warm page. Fields are
 * found by their `data-testid`s: `card-number`, `card-expiry`, `card-cvc`, `card-name`, and
 * `email` / `postal-code` when given. It also starts `watchThreeDS` on the page, so that
 * `completeThreeDS` knows a challenge that settles by itself.
 */
export async function fillCard(target: CardTarget, card: CardInput): Promise<FrameLocator> {
  const iframe = await cardIframe(target);
  watchThreeDS(iframe.page());
  // The loader marks the element it mounted on once the frame has connected and rendered.
  await expect(iframe.locator('xpath=..')).toHaveAttribute('data-payframe-ready', '');
  const frame = iframe.contentFrame();
  await frame.getByTestId('card-number').fill(card.number);
  await frame.getByTestId('card-expiry').fill(card.expiry ?? futureExpiry());
  await frame.getByTestId('card-cvc').fill(card.cvc ?? '123');
  await frame.getByTestId('card-name').fill(card.name ?? 'Ada Lovelace');
  if (card.email !== undefined) await frame.getByTestId('email').fill(card.email);
  if (card.postalCode !== undefined) await frame.getByTestId('postal-code').fill(card.postalCode);
  return frame;
}
