import { FRAME_SHAPES } from '../protocol/frame-shapes.ts';
import { MESSAGE } from '../protocol/names.ts';
import { check } from '../protocol/shape.ts';
import type { ConnectMessage, LaunchParams } from '../protocol/to-frame.ts';
import type { HelloMessage } from '../protocol/to-page.ts';

/** The merchant page's origin and the mount's nonce, from the fragment the loader wrote. */
export function readLaunchParams(hash: string): LaunchParams | null {
  const parsed = check(FRAME_SHAPES.launchParams, Object.fromEntries(new URLSearchParams(hash.replace(/^#/, ''))));
  return parsed.success ? parsed.data : null;
}

/**
 * Says hello to the page that launched this frame, then waits for its connect message: accepted only
 * from that origin, from the parent window, with the nonce, and carrying the channel's port. Anything
 * else (other frames, other tabs, a forged nonce) is ignored. Returns a function that stops waiting.
 */
export function awaitConnect(frame: Window, params: LaunchParams, onConnect: (port: MessagePort, message: ConnectMessage) => void): () => void {
  const listen = (event: MessageEvent) => {
    if (event.origin !== params.origin || event.source !== frame.parent) return;
    const parsed = check(FRAME_SHAPES.connect, event.data);
    const port = event.ports[0];
    if (!parsed.success || parsed.data.nonce !== params.nonce || !port) return;
    frame.removeEventListener('message', listen);
    onConnect(port, parsed.data);
  };
  frame.addEventListener('message', listen);
  frame.parent.postMessage({ type: MESSAGE.hello, nonce: params.nonce } satisfies HelloMessage, params.origin);
  return () => frame.removeEventListener('message', listen);
}
