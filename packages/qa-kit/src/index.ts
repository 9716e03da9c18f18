// The Payframe QA kit: helpers for Playwright checkout tests in test mode. The e2e suite uses them
// itself; a merchant's project depends on `@payframe/qa-kit` (see docs/qa-kit.md).

export { TEST_ONE_TIME_CODE } from '@payframe/contract/test-cards';
export { PayframeApiError, type PayframeApiOptions } from './api.ts';
export { expireCharge, expireToken } from './expire.ts';
export { CARD_FRAME, type CardInput, type CardTarget, fillCard, futureExpiry } from './fill-card.ts';
export { type ChromiumLaunchChoices, chromiumLaunchOptions } from './launch-options.ts';
export { TEST_CARDS, type TestCard, type TestCardName, type TestCardOutcome } from './test-cards.ts';
export {
  COMPLETE_THREE_DS_TIMEOUT_MS,
  type CompleteThreeDSOptions,
  completeThreeDS,
  THREE_DS_FRAME,
  THREE_DS_PATH,
  type ThreeDSAction,
  type ThreeDSResult,
  type ThreeDSStatus,
  type TransStatus,
  watchThreeDS,
} from './three-ds.ts';
export { type EventsClient, type WaitForEventOptions, waitForEvent } from './wait-for-event.ts';
