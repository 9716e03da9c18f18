// The in-page 3-D Secure challenge (docs/three-d-secure.md "In-page challenge"): plain data shared by
// the widget's loader, which opens the dialog, and the hosted page's script (@payframe/threeds), which
// posts the outcome from it. Type-only imports, so a browser bundle takes it without zod.
import type { ThreeDSStatus } from './charges.ts';

/** Posted by the challenge frame once 3-D Secure is settled, to the return URL's origin. */
export const THREEDS_COMPLETE = 'payframe:3ds-complete';
export type ThreeDSCompleteMessage = { type: typeof THREEDS_COMPLETE; chargeId: string; status: ThreeDSStatus };

/** Posted by the challenge frame when the shopper presses Esc inside it: the merchant's page never sees that key. */
export const THREEDS_CLOSE = 'payframe:3ds-close';
export type ThreeDSCloseMessage = { type: typeof THREEDS_CLOSE; chargeId: string };

/** Added to the redirect URL: the page may then be framed by the return URL's origin, and answers the message instead of a redirect. */
export const IFRAME_DISPLAY = 'display=iframe';

export const THREEDS_FRAME_TITLE = '3-D Secure authentication';
export const THREEDS_FRAME_NAME = 'payframe-3ds';

/** EMV 3-D Secure challenge window sizes, width × height in CSS pixels; `05` is the full screen. */
export const WINDOW_SIZES = { '01': [250, 400], '02': [390, 400], '03': [500, 600], '04': [600, 400], '05': null } as const;
export type WindowSize = keyof typeof WINDOW_SIZES;
