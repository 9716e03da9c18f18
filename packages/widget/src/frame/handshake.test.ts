import { describe, expect, it, vi } from 'vitest';
import { awaitConnect, readLaunchParams } from './handshake.ts';

const ORIGIN = 'https://shop.example';
const NONCE = '0123456789abcdef0123456789abcdef';
const CONNECT = { type: 'payframe:connect', nonce: NONCE, publishableKey: 'pk_test_abc', options: { locale: 'fr' } };

/** A stand-in for the frame's window: its parent records what the frame posts to it. */
function frameWindow() {
  const parent = { postMessage: vi.fn() };
  const frame = Object.assign(new EventTarget(), { parent }) as unknown as Window;
  return { frame, parent };
}

function message(frame: Window, init: { data: unknown; origin: string; source: unknown; ports?: MessagePort[] }) {
  frame.dispatchEvent(new MessageEvent('message', { ...init, source: init.source as Window }));
}

describe('readLaunchParams', () => {
  it('reads the origin and nonce the loader put in the fragment', () => {
    expect(readLaunchParams(`#origin=${encodeURIComponent(ORIGIN)}&nonce=${NONCE}`)).toEqual({ origin: ORIGIN, nonce: NONCE });
  });

  it.each([
    ['no fragment', ''],
    ['a short nonce', `#origin=${ORIGIN}&nonce=abc`],
    ['an origin with a path', `#origin=${ORIGIN}/pay&nonce=${NONCE}`],
    ['a script URL', `#origin=javascript:alert(1)&nonce=${NONCE}`],
  ])('refuses %s', (_case, hash) => {
    expect(readLaunchParams(hash)).toBeNull();
  });
});

describe('awaitConnect', () => {
  it('says hello to the launching origin only', () => {
    const { frame, parent } = frameWindow();
    awaitConnect(frame, { origin: ORIGIN, nonce: NONCE }, vi.fn());
    expect(parent.postMessage).toHaveBeenCalledWith({ type: 'payframe:hello', nonce: NONCE }, ORIGIN);
  });

  it('ignores forged connect messages: other origin, other window, wrong nonce, no port, bad options', () => {
    const { frame, parent } = frameWindow();
    const onConnect = vi.fn();
    awaitConnect(frame, { origin: ORIGIN, nonce: NONCE }, onConnect);
    const { port1 } = new MessageChannel();
    message(frame, { data: CONNECT, origin: 'https://evil.example', source: parent, ports: [port1] });
    message(frame, { data: CONNECT, origin: ORIGIN, source: { postMessage() {} }, ports: [port1] });
    message(frame, { data: { ...CONNECT, nonce: 'f'.repeat(32) }, origin: ORIGIN, source: parent, ports: [port1] });
    message(frame, { data: CONNECT, origin: ORIGIN, source: parent, ports: [] });
    message(frame, {
      data: { ...CONNECT, options: { style: { base: { color: 'url(https://evil.example/x)' } } } },
      origin: ORIGIN,
      source: parent,
      ports: [port1],
    });
    message(frame, { data: { ...CONNECT, publishableKey: 'sk_test_abc' }, origin: ORIGIN, source: parent, ports: [port1] });
    expect(onConnect).not.toHaveBeenCalled();
    port1.close();
  });

  it('connects once to the parent, from its origin, with the nonce and a port', () => {
    const { frame, parent } = frameWindow();
    const onConnect = vi.fn();
    awaitConnect(frame, { origin: ORIGIN, nonce: NONCE }, onConnect);
    const { port1 } = new MessageChannel();
    message(frame, { data: CONNECT, origin: ORIGIN, source: parent, ports: [port1] });
    message(frame, { data: CONNECT, origin: ORIGIN, source: parent, ports: [port1] });
    expect(onConnect).toHaveBeenCalledTimes(1);
    const [port, connect] = onConnect.mock.calls[0] ?? [];
    expect(port).toBe(port1);
    expect(connect).toEqual(CONNECT);
    port1.close();
  });
});
