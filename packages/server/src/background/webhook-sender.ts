import { isIP } from 'node:net';
import type { Mode } from '@payframe/contract';
import type { WebhookHeaders } from '@payframe/contract/webhook-signing';
import { Agent, type Dispatcher } from 'undici';
import { WEBHOOK_TIMEOUT_MS } from '../domain/webhook-retry.ts';
import { nonPublicReason, publicOnlyLookup } from '../security/webhook-targets.ts';

/** The answer's body is read (so the connection can be reused) up to this much, then the connection is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const MAX_TARGETS = 10_000;

/** How one POST went: the status the receiver answered, or why there was none. */
export type SendResult = { statusCode: number | null; error: string | null };

export type WebhookSender = {
  send(target: { url: string; mode: Mode }, headers: WebhookHeaders, body: string): Promise<SendResult>;
  /** Cuts the attempts in flight (each answers that the server stopped) and closes the pools. */
  close(): void;
};

const INTERRUPTED: SendResult = { statusCode: null, error: 'interrupted: the server stopped during the attempt' };

/**
 * POSTs through undici's dispatcher, which costs about half the CPU of node:http's ClientRequest
 * per webhook. It follows no redirect (a 3xx is an answer like any other non-2xx). Live
 * connections resolve through publicOnlyLookup; each mode keeps its own keep-alive pools, so a
 * test endpoint's connection is never reused for a live one. Each attempt has one timer of its
 * own for the whole attempt; AbortSignal.timeout and AbortSignal.any per request cost more than the POST.
 */
export function webhookSender(options: { timeoutMs?: number } = {}): WebhookSender {
  // The whole attempt, connecting and the answer's body included; the lease (webhook-worker.ts) is longer.
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const timedOut: SendResult = { statusCode: null, error: `timeout: no answer within ${timeoutMs / 1000} s` };
  // undici's own header and body timers are off: the attempt's timer covers both.
  const pools = { maxRedirections: 0, maxResponseSize: MAX_RESPONSE_BYTES, headersTimeout: 0, bodyTimeout: 0 };
  const agents: Record<Mode, Agent> = {
    test: new Agent({ ...pools, connect: { timeout: timeoutMs } }),
    live: new Agent({ ...pools, connect: { timeout: timeoutMs, lookup: publicOnlyLookup } }),
  };
  const inFlight = new Set<() => void>();

  /** Per URL and mode: where to connect, or why not. Parsed once, not for every attempt. */
  const targets = new Map<string, Target>();

  function targetOf(url: string, mode: Mode): Target {
    const key = `${mode} ${url}`;
    let target = targets.get(key);
    if (!target) {
      if (targets.size >= MAX_TARGETS) targets.clear();
      target = parseTarget(new URL(url), mode);
      targets.set(key, target);
    }
    return target;
  }

  function send(to: { url: string; mode: Mode }, headers: WebhookHeaders, body: string): Promise<SendResult> {
    const target = targetOf(to.url, to.mode);
    if ('refused' in target) return Promise.resolve({ statusCode: null, error: target.refused });
    return new Promise((resolve) => {
      let answered = false;
      let abort: ((error?: Error) => void) | null = null;
      const finish = (result: SendResult) => {
        if (answered) return;
        answered = true;
        inFlight.delete(interrupt);
        resolve(result);
      };
      // Before the request has a connection there is nothing to abort yet: onConnect aborts it then, before a byte is written.
      const cut = (result: SendResult) => {
        finish(result);
        abort?.();
      };
      const interrupt = () => cut(INTERRUPTED);
      // The whole attempt, the answer's body too: one that trickles is cut, its status already counted.
      const timer = setTimeout(() => cut(timedOut), timeoutMs);
      inFlight.add(interrupt);
      const handler: Dispatcher.DispatchHandlers = {
        onConnect(abortRequest) {
          abort = abortRequest;
          if (answered) abortRequest();
        },
        onHeaders(statusCode) {
          // 1xx answers are interim: the final status follows.
          if (statusCode >= 200) finish({ statusCode, error: null });
          return true;
        },
        onData: () => true,
        onComplete() {
          clearTimeout(timer);
        },
        onError(error) {
          clearTimeout(timer);
          finish({ statusCode: null, error: describe(error) });
        },
      };
      agents[to.mode].dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Payframe-Webhooks' },
          body,
        },
        handler,
      );
    });
  }

  return {
    send,
    close() {
      for (const interrupt of [...inFlight]) interrupt();
      for (const agent of Object.values(agents)) agent.destroy().catch(() => {});
    },
  };
}

type Target = { refused: string } | { origin: string; path: string };

/** A live endpoint must be https, and an address in its URL public; its hostname is checked on each connection (publicOnlyLookup). */
function parseTarget(url: URL, mode: Mode): Target {
  if (mode === 'live') {
    if (url.protocol !== 'https:') return { refused: 'refused: live endpoints must be https' };
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const refused = isIP(host) ? nonPublicReason(host) : null;
    if (refused) return { refused: `refused: the address is ${refused}` };
  }
  return { origin: url.origin, path: `${url.pathname}${url.search}` };
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRNOTPUBLIC') return error.message;
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'the hostname does not resolve';
  return `connection failed: ${error.code ?? error.message}`;
}
