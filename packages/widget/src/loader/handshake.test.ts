import { describe, expect, it, vi } from 'vitest';
import { awaitHello, connectFrame, randomNonce } from './handshake.ts';

const FRAME_ORIGIN = 'https://pay.example';

function setup() {
  const page = new EventTarget() as unknown as Window;
  const contentWindow = { postMessage: vi.fn() };
  const iframe = { contentWindow } as unknown as HTMLIFrameElement;
  const nonce = randomNonce();
  const onHello = vi.fn();
  awaitHello(page, iframe, FRAME_ORIGIN, nonce, onHello);
  const post = (data: unknown, origin: string, source: unknown) => page.dispatchEvent(new MessageEvent('message', { data, origin, source: source as Window }));
  return { contentWindow, iframe, nonce, onHello, post };
}

describe('randomNonce', () => {
  it('is 128 random bits in hex', () => {
    expect(randomNonce()).toMatch(/^[0-9a-f]{32}$/);
    expect(randomNonce()).not.toBe(randomNonce());
  });
});

describe('awaitHello', () => {
  it('ignores a hello from another origin, another window, or with another nonce', () => {
    const { contentWindow, nonce, onHello, post } = setup();
    post({ type: 'payframe:hello', nonce }, 'https://evil.example', contentWindow);
    post({ type: 'payframe:hello', nonce }, FRAME_ORIGIN, { postMessage() {} });
    post({ type: 'payframe:hello', nonce: 'f'.repeat(32) }, FRAME_ORIGIN, contentWindow);
    post({ type: 'payframe:ready', nonce }, FRAME_ORIGIN, contentWindow);
    post(null, FRAME_ORIGIN, contentWindow);
    expect(onHello).not.toHaveBeenCalled();
  });

  it('accepts its own frame’s hello once', () => {
    const { contentWindow, nonce, onHello, post } = setup();
    post({ type: 'payframe:hello', nonce }, FRAME_ORIGIN, contentWindow);
    post({ type: 'payframe:hello', nonce }, FRAME_ORIGIN, contentWindow);
    expect(onHello).toHaveBeenCalledTimes(1);
  });
});

describe('connectFrame', () => {
  it('hands the frame a port, addressed to the Payframe origin only', () => {
    const { contentWindow, iframe, nonce } = setup();
    const message = { type: 'payframe:connect' as const, nonce, publishableKey: 'pk_test_abc', options: {} };
    const port = connectFrame(iframe, FRAME_ORIGIN, message);
    const [sent, targetOrigin, transfer] = contentWindow.postMessage.mock.calls[0] ?? [];
    expect(sent).toEqual(message);
    expect(targetOrigin).toBe(FRAME_ORIGIN);
    expect(transfer).toHaveLength(1);
    expect(transfer[0]).not.toBe(port);
    port.close();
  });
});
