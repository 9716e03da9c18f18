import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ParentMessage } from '../protocol/to-frame.ts';
import type { FrameMessage } from '../protocol/to-page.ts';
import { type Card, mountCard } from './card.ts';
import { serveEmptyFramePages } from './test-frame-server.ts';

const FRAME_URL = new URL('https://pay.example/v2/widget/frame.html');
const KEY = 'pk_test_abc';

type Mounted = { card: Card; host: HTMLElement; iframe: HTMLIFrameElement; nonce: string; postMessage: ReturnType<typeof vi.fn> };

function mount(): Mounted {
  const host = document.createElement('div');
  document.body.append(host);
  const card = mountCard(FRAME_URL, KEY, host, { locale: 'en' });
  const iframe = host.querySelector('iframe') as HTMLIFrameElement;
  const nonce = new URLSearchParams(new URL(iframe.src).hash.slice(1)).get('nonce') ?? '';
  // What the loader posts into the frame's window is recorded instead of delivered.
  const postMessage = vi.fn();
  Object.defineProperty(iframe, 'contentWindow', { value: { postMessage } });
  return { card, host, iframe, nonce, postMessage };
}

function hello(mounted: Mounted, origin = FRAME_URL.origin, source: unknown = mounted.iframe.contentWindow) {
  window.dispatchEvent(new MessageEvent('message', { data: { type: 'payframe:hello', nonce: mounted.nonce }, origin, source: source as Window }));
}

/** Completes the handshake and returns the frame's end of the channel. */
function connect(mounted: Mounted): MessagePort {
  hello(mounted);
  const port = mounted.postMessage.mock.calls[0]?.[2]?.[0] as MessagePort;
  opened.push(port);
  return port;
}

function nextMessage(port: MessagePort): Promise<ParentMessage> {
  return new Promise((resolve) => {
    port.onmessage = (event) => resolve(event.data as ParentMessage);
  });
}

function send(port: MessagePort, message: FrameMessage): void {
  port.postMessage(message);
}

serveEmptyFramePages();

let opened: MessagePort[] = [];
let cards: Card[] = [];
beforeEach(() => {
  opened = [];
  cards = [];
});
afterEach(() => {
  for (const card of cards) card.destroy();
  for (const port of opened) port.close();
  document.body.innerHTML = '';
});

function mounted(): Mounted {
  const result = mount();
  cards.push(result.card);
  return result;
}

describe('mount', () => {
  it('creates one titled, named iframe on the Payframe origin, with the page origin and a nonce in the fragment', () => {
    const { iframe, nonce } = mounted();
    expect(iframe.title).toBe('Secure card payment form');
    expect(iframe.name).toBe('payframe-card');
    const src = new URL(iframe.src);
    expect(src.origin + src.pathname).toBe('https://pay.example/v2/widget/frame.html');
    expect(new URLSearchParams(src.hash.slice(1)).get('origin')).toBe(location.origin);
    expect(nonce).toMatch(/^[0-9a-f]{32}$/);
  });

  it('sends nothing into the frame for a forged hello', () => {
    const card = mounted();
    hello(card, 'https://evil.example');
    hello(card, FRAME_URL.origin, window);
    expect(card.postMessage).not.toHaveBeenCalled();
  });

  it('connects on its frame’s hello, with the key and options', () => {
    const card = mounted();
    connect(card);
    expect(card.postMessage).toHaveBeenCalledTimes(1);
    expect(card.postMessage.mock.calls[0]?.[0]).toEqual({ type: 'payframe:connect', nonce: card.nonce, publishableKey: KEY, options: { locale: 'en' } });
    expect(card.postMessage.mock.calls[0]?.[1]).toBe('https://pay.example');
  });
});

describe('the channel', () => {
  it('marks the host ready, sizes the iframe and relays events to the merchant’s handlers', async () => {
    const { card, host, iframe, ...rest } = mounted();
    const port = connect({ card, host, iframe, ...rest });
    const ready = new Promise((resolve) => card.on('ready', resolve));
    const change = vi.fn();
    card.on('change', change);
    send(port, { type: 'payframe:resize', height: 180 });
    send(port, { type: 'payframe:ready' });
    await ready;
    expect(host.hasAttribute('data-payframe-ready')).toBe(true);
    expect(iframe.style.height).toBe('180px');
    const changed = new Promise((resolve) => card.on('change', resolve));
    send(port, { type: 'payframe:event', name: 'change', detail: { complete: true, empty: false, brand: 'VISA' } });
    expect(await changed).toEqual({ complete: true, empty: false, brand: 'VISA' });
    expect(change).toHaveBeenCalledTimes(1);
  });

  it('queues calls made before the handshake and resolves createToken with the frame’s answer', async () => {
    const mountedCard = mounted();
    const tokenPromise = mountedCard.card.createToken({ shopper: { email: 'ada@example.com' } });
    const port = connect(mountedCard);
    const request = await nextMessage(port);
    expect(request).toEqual({ type: 'payframe:tokenize', id: 1, request: { shopper: { email: 'ada@example.com' } } });
    const token = { id: 'tok', type: 'token' };
    send(port, { type: 'payframe:token', id: 1, result: { token } } as FrameMessage);
    expect(await tokenPromise).toEqual({ token });
  });

  it('checks update() options and sends them', async () => {
    const mountedCard = mounted();
    const port = connect(mountedCard);
    expect(() => mountedCard.card.update({ style: { base: { color: 'url(x)' } } })).toThrow(TypeError);
    const message = nextMessage(port);
    mountedCard.card.update({ disabled: true });
    expect(await message).toEqual({ type: 'payframe:options', options: { locale: 'en', disabled: true } });
  });

  describe('while the frame page is slow (fake timers)', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A mounted card and the details of every `error` it has emitted. */
    function mountedWithErrors() {
      const card = mounted();
      const errors: unknown[] = [];
      card.card.on('error', (detail) => errors.push(detail));
      return { ...card, errors };
    }

    it('tells the merchant when the frame page loaded but never said hello', () => {
      const { iframe, errors } = mountedWithErrors();
      iframe.dispatchEvent(new Event('load'));
      vi.advanceTimersByTime(9_999);
      expect(errors).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(errors).toMatchObject([{ error: { error: { code: 'SERVICE_UNAVAILABLE', message: 'The Payframe card form did not load.' } } }]);
    });

    it('tells the merchant when the frame page never loads at all, and answers a pending createToken', async () => {
      const { card, iframe, errors } = mountedWithErrors();
      const pending = card.createToken();
      vi.advanceTimersByTime(29_999);
      expect(errors).toEqual([]);
      vi.advanceTimersByTime(1);
      const failed = { error: { code: 'SERVICE_UNAVAILABLE', message: 'The Payframe card form did not load.' } };
      expect(errors).toMatchObject([{ error: failed }]);
      expect(await pending).toMatchObject({ error: failed });
      // The page loading after all is no second error.
      iframe.dispatchEvent(new Event('load'));
      vi.advanceTimersByTime(10_000);
      expect(errors).toHaveLength(1);
    });

    it('gives a frame page that loads late its own 10 s to say hello', () => {
      const { iframe, errors } = mountedWithErrors();
      vi.advanceTimersByTime(25_000);
      iframe.dispatchEvent(new Event('load'));
      vi.advanceTimersByTime(9_999);
      expect(errors).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(errors).toHaveLength(1);
    });

    it('after the load timeout, answers pending and later createToken calls with that error, and ignores a late hello', async () => {
      const card = mounted();
      const before = card.card.createToken();
      card.iframe.dispatchEvent(new Event('load'));
      vi.advanceTimersByTime(10_000);
      const failed = { error: { type: 'api_error', error: { code: 'SERVICE_UNAVAILABLE', message: 'The Payframe card form did not load.' } } };
      expect(await before).toMatchObject(failed);
      expect(await card.card.createToken()).toMatchObject(failed);
      hello(card);
      expect(card.postMessage).not.toHaveBeenCalled();
    });
  });

  it('removes everything on destroy and answers pending tokens with an error', async () => {
    const { card, host } = mounted();
    const pending = card.createToken();
    card.destroy();
    expect(host.querySelector('iframe')).toBeNull();
    expect(await pending).toMatchObject({ error: { type: 'api_error', error: { code: 'SERVICE_UNAVAILABLE' } } });
  });
});
