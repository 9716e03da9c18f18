import type { ErrorBody } from '@payframe/contract';
import { type CardEvent, FRAME_NAME, FRAME_TITLE, MESSAGE } from '../protocol/names.ts';
import type { CardOptions, TokenRequest } from '../protocol/options.ts';
import type { ParentMessage } from '../protocol/to-frame.ts';
import type { CardEventDetail, FrameMessage, TokenResult } from '../protocol/to-page.ts';
import { checkOptions } from './check-options.ts';
import { createEmitter } from './emitter.ts';
import { awaitHello, connectFrame, randomNonce } from './handshake.ts';

export type Card = {
  on<E extends CardEvent>(event: E, handler: (detail: CardEventDetail[E]) => void): Card;
  off<E extends CardEvent>(event: E, handler: (detail: CardEventDetail[E]) => void): Card;
  /** Resolves with `{ token }` or `{ error }` (the API's error body); never rejects for a card problem. */
  createToken(request?: TokenRequest): Promise<TokenResult>;
  focus(): void;
  clear(): void;
  /** Replaces the given top-level options (locale, style, fields, disabled); the others stay. */
  update(options: CardOptions): void;
  destroy(): void;
};

function unavailable(message: string): ErrorBody {
  return { type: 'api_error', message, error: { code: 'SERVICE_UNAVAILABLE', message } };
}

export function mountCard(frameUrl: URL, publishableKey: string, host: HTMLElement, initialOptions: CardOptions): Card {
  let options = initialOptions;
  let port: MessagePort | null = null;
  // Set once the frame can no longer answer (it never loaded, or destroy()): createToken resolves with it.
  let failure: ErrorBody | undefined;
  let nextTokenId = 1;
  const waiting: ParentMessage[] = [];
  const pendingTokens = new Map<number, (result: TokenResult) => void>();
  const events = createEmitter<CardEventDetail>();
  const nonce = randomNonce();
  let loadTimer: ReturnType<typeof setTimeout> | undefined;

  const iframe = document.createElement('iframe');
  iframe.name = FRAME_NAME;
  iframe.title = FRAME_TITLE;
  iframe.setAttribute('scrolling', 'no');
  // The fragment never leaves the browser: the frame learns who may talk to it without a server round trip.
  iframe.src = `${frameUrl.href}#${new URLSearchParams({ origin: location.origin, nonce })}`;
  Object.assign(iframe.style, { display: 'block', width: '100%', height: '0', border: '0', overflow: 'hidden' });

  const send = (message: ParentMessage) => (port ? port.postMessage(message) : waiting.push(message));

  const receive = (message: FrameMessage) => {
    switch (message.type) {
      case MESSAGE.ready:
        clearTimeout(loadTimer);
        host.setAttribute('data-payframe-ready', '');
        events.emit('ready', {});
        return;
      case MESSAGE.resize:
        iframe.style.height = `${message.height}px`;
        return;
      case MESSAGE.event:
        events.emit(message.name, message.detail as never);
        return;
      case MESSAGE.token:
        pendingTokens.get(message.id)?.(message.result);
        pendingTokens.delete(message.id);
    }
  };

  const stopListening = awaitHello(window, iframe, frameUrl.origin, nonce, () => {
    port = connectFrame(iframe, frameUrl.origin, { type: MESSAGE.connect, nonce, publishableKey, options });
    port.onmessage = (event: MessageEvent<FrameMessage>) => receive(event.data);
    for (const message of waiting.splice(0)) port.postMessage(message);
  });

  /** Answers pending and later createToken calls with `error`; a frame that connects after this is not listened to. */
  const fail = (error: ErrorBody) => {
    failure = error;
    clearTimeout(loadTimer);
    stopListening();
    port?.close();
    for (const resolve of pendingTokens.values()) resolve({ error });
    pendingTokens.clear();
    return error;
  };

  // How long after the frame page loaded a missing hello means it will never come (wrong URL,
  // server error); the page itself gets three times that to load, as a server that takes the
  // connection and never answers fires no `load` event and the browser's own limit is minutes.
  const LOAD_TIMEOUT_MS = 10_000;
  const giveUpAfter = (ms: number) => {
    clearTimeout(loadTimer);
    loadTimer = setTimeout(() => events.emit('error', { error: fail(unavailable('The Payframe card form did not load.')) }), ms);
  };
  // A page that loads after the form has failed changes nothing: the merchant was told once.
  iframe.addEventListener('load', () => failure || giveUpAfter(LOAD_TIMEOUT_MS));
  host.appendChild(iframe);
  giveUpAfter(3 * LOAD_TIMEOUT_MS);

  const card: Card = {
    on(event, handler) {
      events.on(event, handler);
      return card;
    },
    off(event, handler) {
      events.off(event, handler);
      return card;
    },
    createToken(request = {}) {
      if (failure) return Promise.resolve({ error: failure });
      const id = nextTokenId++;
      return new Promise((resolve) => {
        pendingTokens.set(id, resolve);
        send({ type: MESSAGE.tokenize, id, request });
      });
    },
    focus() {
      // Focus the frame from the parent first: a cross-origin frame may not take focus on its own.
      iframe.focus();
      send({ type: MESSAGE.focus });
    },
    clear() {
      send({ type: MESSAGE.clear });
    },
    update(changes) {
      options = checkOptions({ ...options, ...changes });
      // Before the handshake the connect message carries the latest options.
      if (port) port.postMessage({ type: MESSAGE.options, options } satisfies ParentMessage);
    },
    destroy() {
      fail(unavailable('This card form was destroyed.'));
      iframe.remove();
      host.removeAttribute('data-payframe-ready');
      events.clear();
    },
  };
  return card;
}
