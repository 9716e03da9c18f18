import type { ThreeDSStatus } from '@payframe/contract';
import {
  IFRAME_DISPLAY,
  THREEDS_CLOSE,
  THREEDS_COMPLETE,
  THREEDS_FRAME_NAME,
  THREEDS_FRAME_TITLE,
  type ThreeDSCloseMessage,
  type ThreeDSCompleteMessage,
  WINDOW_SIZES,
  type WindowSize,
} from '@payframe/contract/three-ds-protocol';

export type ThreeDSOptions = {
  /** `modal` (the default) keeps the shopper on the page in a dialog; `redirect` navigates to the challenge. */
  display?: 'modal' | 'redirect';
  /** The EMV challenge window size; by default `05` (full screen) below 600 px wide, else `03`. */
  windowSize?: WindowSize;
};

/** The charge's 3-D Secure status once settled, or `PENDING` with `canceled` when the shopper closed the dialog. */
export type ThreeDSResult = { chargeId: string; status: ThreeDSStatus; canceled?: true };

/**
 * Shows the charge's 3-D Secure challenge (its `threedSecure.redirect`, on the Payframe origin) in a
 * modal dialog over the merchant's page, and resolves once the page in it posts the outcome. Any
 * window can post to the merchant's page, so only a message from the Payframe origin and from this
 * dialog's own iframe counts.
 */
export function handleThreeDS(payframeOrigin: string, redirectUrl: string, options: ThreeDSOptions = {}): Promise<ThreeDSResult> {
  const url = new URL(redirectUrl, location.href);
  if (url.origin !== payframeOrigin || !url.searchParams.has('paRes')) {
    throw new TypeError('Payframe: pass threedSecure.redirect');
  }
  const size = options.windowSize ?? (innerWidth < 600 ? '05' : '03');
  if (!(size in WINDOW_SIZES)) throw new TypeError('Payframe: windowSize is 01 to 05');
  if (options.display === 'redirect') {
    location.assign(url.href);
    // The page is leaving: the outcome arrives at the return URL.
    return new Promise(() => undefined);
  }
  const chargeId = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
  const opener = document.activeElement as HTMLElement | null;
  const dialog = document.createElement('dialog');
  const close = document.createElement('button');
  const iframe = document.createElement('iframe');
  const box = WINDOW_SIZES[size];

  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-label', THREEDS_FRAME_TITLE);
  dialog.style.cssText = `padding:0;border:0;border-radius:8px;overflow:hidden;max-width:100vw;max-height:100vh;${
    box ? `width:${box[0]}px;height:${box[1] + 40}px` : 'width:100vw;height:100vh'
  }`;
  close.type = 'button';
  close.textContent = '×';
  close.setAttribute('aria-label', 'Close');
  close.style.cssText = 'display:block;margin-left:auto;height:40px;min-width:44px;font:24px/1 sans-serif;border:0;background:#fff;color:#111';
  iframe.name = THREEDS_FRAME_NAME;
  iframe.title = THREEDS_FRAME_TITLE;
  iframe.src = `${url.href}&${IFRAME_DISPLAY}`;
  iframe.style.cssText = 'display:block;border:0;width:100%;height:calc(100% - 40px)';
  // Tab past either end of the dialog comes back inside: focus never reaches the browser's chrome or the page.
  const guard = (to: HTMLElement) => {
    const edge = document.createElement('span');
    edge.tabIndex = 0;
    edge.onfocus = () => to.focus();
    return edge;
  };
  dialog.append(guard(iframe), close, iframe, guard(close));

  return new Promise((resolve) => {
    const finish = (result: ThreeDSResult) => {
      removeEventListener('message', listen);
      dialog.close();
      dialog.remove();
      opener?.focus();
      resolve(result);
    };
    const cancel = (event: Event) => {
      event.preventDefault();
      finish({ chargeId, status: 'PENDING', canceled: true });
    };
    const listen = (event: MessageEvent) => {
      if (event.origin !== payframeOrigin || event.source !== iframe.contentWindow) return;
      const data = event.data as Partial<ThreeDSCompleteMessage | ThreeDSCloseMessage> | null;
      if (data?.chargeId !== chargeId) return;
      if (data.type === THREEDS_CLOSE) cancel(event);
      else if (data.type === THREEDS_COMPLETE && 'status' in data && data.status) finish({ chargeId, status: data.status });
    };
    addEventListener('message', listen);
    // The browser's own close request on a modal dialog: Esc.
    dialog.addEventListener('cancel', cancel);
    close.addEventListener('click', cancel);
    document.body.append(dialog);
    dialog.showModal();
    close.focus();
  });
}
