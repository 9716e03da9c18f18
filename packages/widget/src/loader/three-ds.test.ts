import { THREEDS_CLOSE, THREEDS_COMPLETE } from '@payframe/contract/three-ds-protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPayframe } from './payframe.ts';
import { serveEmptyFramePages } from './test-frame-server.ts';
import { handleThreeDS, type ThreeDSResult } from './three-ds.ts';

serveEmptyFramePages();

const ORIGIN = 'https://pay.example';
const REDIRECT = `${ORIGIN}/3d-secure/ch_123?paRes=abc`;

type Opened = { result: Promise<ThreeDSResult>; dialog: HTMLDialogElement; iframe: HTMLIFrameElement; frameWindow: Window; settled: () => boolean };

function open(options?: Parameters<typeof handleThreeDS>[2]): Opened {
  const result = handleThreeDS(ORIGIN, REDIRECT, options);
  let done = false;
  void result.then(() => {
    done = true;
  });
  const dialog = document.querySelector('dialog') as HTMLDialogElement;
  const iframe = dialog.querySelector('iframe') as HTMLIFrameElement;
  // A stand-in for the frame's window: messages are checked against it as the source.
  const frameWindow = { postMessage: vi.fn() } as unknown as Window;
  Object.defineProperty(iframe, 'contentWindow', { value: frameWindow });
  return { result, dialog, iframe, frameWindow, settled: () => done };
}

function post(data: unknown, origin: string, source: unknown): void {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source: source as Window }));
}

/** Lets queued promise callbacks run. */
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('handleThreeDS in a dialog', () => {
  it('opens an accessible modal dialog with the challenge framed at display=iframe', () => {
    const { dialog, iframe } = open({ windowSize: '02' });
    expect(dialog.getAttribute('role')).toBe('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('aria-label')).toBe('3-D Secure authentication');
    expect(dialog.open).toBe(true);
    expect(iframe.src).toBe(`${REDIRECT}&display=iframe`);
    expect(iframe.title).toBe('3-D Secure authentication');
    expect(iframe.name).toBe('payframe-3ds');
    expect(dialog.style.width).toBe('390px');
    expect(dialog.querySelector('button')?.getAttribute('aria-label')).toBe('Close');
  });

  it.each([
    [undefined, 1024, '500px'],
    [undefined, 375, '100vw'],
    ['01', 1024, '250px'],
    ['04', 1024, '600px'],
    ['05', 1024, '100vw'],
  ] as const)('windowSize %s at %i px wide: %s', (windowSize, width, expected) => {
    vi.stubGlobal('innerWidth', width);
    const { dialog } = open(windowSize ? { windowSize } : {});
    expect(dialog.style.width).toBe(expected);
  });

  it('resolves with the outcome from its own frame on the Payframe origin, then is gone and focus is back', async () => {
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    const opened = open();
    expect(document.activeElement).not.toBe(button);
    post({ type: THREEDS_COMPLETE, chargeId: 'ch_123', status: 'CHARGEABLE' }, ORIGIN, opened.frameWindow);
    expect(await opened.result).toEqual({ chargeId: 'ch_123', status: 'CHARGEABLE' });
    expect(document.querySelector('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('ignores the message from another origin, another window, or about another charge', async () => {
    const opened = open();
    const complete = { type: THREEDS_COMPLETE, chargeId: 'ch_123', status: 'CHARGEABLE' };
    post(complete, 'https://evil.example', opened.frameWindow);
    post(complete, ORIGIN, window);
    post(complete, ORIGIN, null);
    post({ ...complete, chargeId: 'ch_other' }, ORIGIN, opened.frameWindow);
    post({ type: 'payframe:ready' }, ORIGIN, opened.frameWindow);
    post(null, ORIGIN, opened.frameWindow);
    await flush();
    expect(opened.settled()).toBe(false);
    expect(opened.dialog.isConnected).toBe(true);
    post({ ...complete, status: 'FAILED' }, ORIGIN, opened.frameWindow);
    expect(await opened.result).toEqual({ chargeId: 'ch_123', status: 'FAILED' });
  });

  it('closes on the browser’s close request (Esc) or the close button: PENDING, canceled, focus back', async () => {
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    const first = open();
    first.dialog.dispatchEvent(new Event('cancel', { cancelable: true }));
    expect(await first.result).toEqual({ chargeId: 'ch_123', status: 'PENDING', canceled: true });
    expect(document.querySelector('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    const second = open();
    second.dialog.querySelector('button')?.click();
    expect(await second.result).toMatchObject({ status: 'PENDING', canceled: true });
    expect(document.activeElement).toBe(button);
  });

  it('closes on Esc pressed inside the frame (its close message), only from its own frame on the Payframe origin', async () => {
    const opened = open();
    post({ type: THREEDS_CLOSE, chargeId: 'ch_123' }, 'https://evil.example', opened.frameWindow);
    post({ type: THREEDS_CLOSE, chargeId: 'ch_123' }, ORIGIN, window);
    post({ type: THREEDS_CLOSE, chargeId: 'ch_other' }, ORIGIN, opened.frameWindow);
    await flush();
    expect(opened.settled()).toBe(false);
    post({ type: THREEDS_CLOSE, chargeId: 'ch_123' }, ORIGIN, opened.frameWindow);
    expect(await opened.result).toEqual({ chargeId: 'ch_123', status: 'PENDING', canceled: true });
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('keeps focus inside: Tab past either end comes back to the close button or the challenge', () => {
    const { dialog, iframe } = open();
    const [first, close, , last] = [...dialog.children] as HTMLElement[];
    expect(document.activeElement).toBe(close);
    last!.focus();
    expect(document.activeElement).toBe(close);
    first!.focus();
    expect(document.activeElement).toBe(iframe);
  });

  it('stops listening once settled: a later message changes nothing', async () => {
    const opened = open();
    post({ type: THREEDS_COMPLETE, chargeId: 'ch_123', status: 'FAILED' }, ORIGIN, opened.frameWindow);
    post({ type: THREEDS_COMPLETE, chargeId: 'ch_123', status: 'CHARGEABLE' }, ORIGIN, opened.frameWindow);
    expect(await opened.result).toEqual({ chargeId: 'ch_123', status: 'FAILED' });
  });
});

describe('handleThreeDS arguments', () => {
  it('takes only a 3-D Secure link on the Payframe origin, and a known window size', () => {
    expect(() => handleThreeDS(ORIGIN, 'https://evil.example/3d-secure/ch_1?paRes=x')).toThrow(TypeError);
    expect(() => handleThreeDS(ORIGIN, `${ORIGIN}/3d-secure/ch_1`)).toThrow(TypeError);
    expect(() => handleThreeDS(ORIGIN, REDIRECT, { windowSize: '06' as '05' })).toThrow(/windowSize/);
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('with display redirect, navigates to the challenge itself and opens no dialog', () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, href: 'https://shop.example/checkout', assign });
    void handleThreeDS(ORIGIN, REDIRECT, { display: 'redirect' });
    expect(assign).toHaveBeenCalledWith(REDIRECT);
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('is on Payframe(), bound to the origin payframe.js came from', async () => {
    const payframe = createPayframe(`${ORIGIN}/v2/js/payframe.js`)('pk_test_abc');
    const result = payframe.handleThreeDS(REDIRECT);
    const iframe = document.querySelector('dialog iframe') as HTMLIFrameElement;
    const frameWindow = { postMessage: vi.fn() };
    Object.defineProperty(iframe, 'contentWindow', { value: frameWindow });
    post({ type: THREEDS_COMPLETE, chargeId: 'ch_123', status: 'NOT_AVAILABLE' }, ORIGIN, frameWindow);
    expect(await result).toEqual({ chargeId: 'ch_123', status: 'NOT_AVAILABLE' });
  });
});
