import { MESSAGE } from '../protocol/names.ts';
import type { ConnectMessage } from '../protocol/to-frame.ts';
import type { HelloMessage } from '../protocol/to-page.ts';

/** 128 random bits as hex: the frame proves it was launched by this mount() by echoing it. */
export function randomNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Calls `onHello` once the frame says hello. Any window can post to the merchant's page, so only a
 * message from the Payframe origin, from this iframe's own window, with this mount's nonce counts.
 * Returns a function that stops listening.
 */
export function awaitHello(page: Window, iframe: HTMLIFrameElement, frameOrigin: string, nonce: string, onHello: () => void): () => void {
  const listen = (event: MessageEvent) => {
    if (event.origin !== frameOrigin || event.source !== iframe.contentWindow) return;
    const data = event.data as Partial<HelloMessage> | null;
    if (data?.type !== MESSAGE.hello || data.nonce !== nonce) return;
    page.removeEventListener('message', listen);
    onHello();
  };
  page.addEventListener('message', listen);
  return () => page.removeEventListener('message', listen);
}

/** Hands the frame one end of a private channel; targetOrigin keeps it from a frame navigated elsewhere. */
export function connectFrame(iframe: HTMLIFrameElement, frameOrigin: string, message: ConnectMessage): MessagePort {
  const channel = new MessageChannel();
  iframe.contentWindow?.postMessage(message, frameOrigin, [channel.port2]);
  return channel.port1;
}
