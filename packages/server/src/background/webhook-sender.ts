import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { urlToHttpOptions } from 'node:url';
import type { Mode } from '@payframe/contract';
import type { WebhookHeaders } from '@payframe/contract/webhook-signing';
import { nonPublicReason, publicOnlyLookup } from '../security/webhook-targets.ts';

/** A receiver has this long to answer; the lease (webhook-worker.ts) is longer. */
const ATTEMPT_TIMEOUT_MS = 10_000;
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

const TIMED_OUT: SendResult = { statusCode: null, error: `timeout: no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` };
const INTERRUPTED: SendResult = { statusCode: null, error: 'interrupted: the server stopped during the attempt' };

/**
 * POSTs over node:http(s), which never follows a redirect: a 3xx is an answer like any other
 * non-2xx. Live connections resolve through publicOnlyLookup; each mode keeps its own
 * keep-alive pool, so a test endpoint's connection is never reused for a live one. Each attempt
 * has one timer of its own for the 10 s; AbortSignal.timeout and AbortSignal.any per request cost
 * more than the POST.
 */
export function webhookSender(): WebhookSender {
  const agents = {
    test: { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) },
    live: { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) },
  };
  const inFlight = new Set<() => void>();

  /** Per URL and mode: where to connect, or why not. Parsed once: request() given a URL converts and merges it on every call, a fifth to a third of its CPU in a microbenchmark. */
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
    const { protocol, options } = target;
    const transport = protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let answered = false;
      const finish = (result: SendResult) => {
        if (answered) return;
        answered = true;
        inFlight.delete(interrupt);
        resolve(result);
      };
      const cut = (result: SendResult) => {
        finish(result);
        request.destroy();
      };
      const interrupt = () => cut(INTERRUPTED);
      const request = transport.request(
        {
          ...options,
          method: 'POST',
          agent: agents[to.mode][protocol],
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Payframe-Webhooks' },
        },
        (response) => {
          finish({ statusCode: response.statusCode ?? null, error: null });
          let received = 0;
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > MAX_RESPONSE_BYTES) response.destroy();
          });
          response.on('error', () => {});
        },
      );
      // The 10 s cover the answer's body too: one that trickles is cut, its status already counted.
      const timer = setTimeout(() => cut(TIMED_OUT), ATTEMPT_TIMEOUT_MS);
      inFlight.add(interrupt);
      request.on('error', (error: NodeJS.ErrnoException) => finish({ statusCode: null, error: describe(error) }));
      // After the answer's body, or when the connection ends before it.
      request.on('close', () => clearTimeout(timer));
      request.end(body);
    });
  }

  return {
    send,
    close() {
      for (const interrupt of [...inFlight]) interrupt();
      for (const byProtocol of Object.values(agents)) for (const agent of Object.values(byProtocol)) agent.destroy();
    },
  };
}

type Target = { refused: string } | { protocol: 'http:' | 'https:'; options: http.RequestOptions };

/** A live endpoint must be https, and an address in its URL public; its hostname is checked on each connection (publicOnlyLookup). */
function parseTarget(url: URL, mode: Mode): Target {
  if (mode === 'live') {
    if (url.protocol !== 'https:') return { refused: 'refused: live endpoints must be https' };
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const refused = isIP(host) ? nonPublicReason(host) : null;
    if (refused) return { refused: `refused: the address is ${refused}` };
  }
  const options: http.RequestOptions = { ...urlToHttpOptions(url), ...(mode === 'live' ? { lookup: publicOnlyLookup } : {}) };
  return { protocol: url.protocol === 'https:' ? 'https:' : 'http:', options };
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRNOTPUBLIC') return error.message;
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'the hostname does not resolve';
  return `connection failed: ${error.code ?? error.message}`;
}
