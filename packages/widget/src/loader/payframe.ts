import { FRAME_PATH } from '../protocol/names.ts';
import type { CardOptions } from '../protocol/options.ts';
import { type Card, mountCard } from './card.ts';
import { checkOptions } from './check-options.ts';
import { handleThreeDS, type ThreeDSOptions, type ThreeDSResult } from './three-ds.ts';

export type PayframeInit = {
  /** Where Payframe is served; by default the origin payframe.js was loaded from. */
  apiBase?: string;
};

export type PayframeInstance = {
  mount(target: string | HTMLElement, options?: CardOptions): Card;
  /** The charge's 3-D Secure challenge in a dialog on this page (or, with `display: 'redirect'`, by navigating to it). */
  handleThreeDS(redirectUrl: string, options?: ThreeDSOptions): Promise<ThreeDSResult>;
};

/** The global `Payframe(publishableKey, init)`, bound to the URL the script was loaded from. */
export function createPayframe(scriptUrl: string | undefined) {
  return function Payframe(publishableKey: string, init: PayframeInit = {}): PayframeInstance {
    if (typeof publishableKey !== 'string' || !/^pk_(test|live)_/.test(publishableKey)) {
      throw new TypeError('Payframe: pass a publishable key (pk_test_… or pk_live_…); a secret key must never reach a browser');
    }
    const base = init.apiBase ?? scriptUrl;
    if (!base) throw new TypeError('Payframe: load payframe.js with <script src> or pass { apiBase }');
    const frameUrl = new URL(FRAME_PATH, base);
    return {
      mount(target, options = {}) {
        const host = typeof target === 'string' ? document.querySelector<HTMLElement>(target) : target;
        if (!host) throw new TypeError(`Payframe: no element matches ${String(target)}`);
        return mountCard(frameUrl, publishableKey, host, checkOptions(options));
      },
      handleThreeDS: (redirectUrl, options) => handleThreeDS(frameUrl.origin, redirectUrl, options),
    };
  };
}
