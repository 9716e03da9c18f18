import { mkdirSync } from 'node:fs';
import { TEST_CARDS, type TestCardName, type ThreeDSAction } from '@payframe/qa-kit';
import { expect, type Page } from '@playwright/test';

// The 3-D Secure scenario cards as the e2e specs drive them through the demo shop.

const SHOTS = new URL('../../test-results/three-d-secure/', import.meta.url);
mkdirSync(SHOTS, { recursive: true });

export type Charge = { status: string; threedSecure: { status: string; transStatus: string | null } };
export type Scenario = { card: TestCardName; action: ThreeDSAction; page: string; paid: boolean; transStatus: string };

export const SCENARIOS: Scenario[] = [
  { card: 'otp3DS', action: { otp: '123456' }, page: 'otp', paid: true, transStatus: 'Y' },
  { card: 'outOfBand3DS', action: 'approve-on-device', page: 'oob-waiting', paid: true, transStatus: 'Y' },
  { card: 'frictionless3DS', action: 'authenticate', page: 'frictionless', paid: true, transStatus: 'Y' },
  { card: 'rejected3DS', action: 'authenticate', page: 'rejected', paid: false, transStatus: 'R' },
  { card: 'unavailable3DS', action: 'authenticate', page: 'auth-unavailable', paid: true, transStatus: 'U' },
];

export const numberOf = (scenario: Scenario): string => TEST_CARDS[scenario.card].number;

/** Saves a full-page screenshot as test-results/three-d-secure/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: true });
}

/** Where the shop leaves the shopper: the receipt when paid, the failed-payment page otherwise. */
export async function expectOutcome(page: Page, scenario: Scenario): Promise<void> {
  if (scenario.paid) await expect(page.getByTestId('receipt-status')).toHaveText('Paid');
  else await expect(page.getByTestId('payment-failed-message')).toHaveText('Authentication failed, try another card.');
}
