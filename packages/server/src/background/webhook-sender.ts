import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Mode } from '@payframe/contract';
import type { WebhookHeaders } from '@payframe/contract/webhook-signing';
import { nonPublicReason, publicOnlyLookup } from '../security/webhook-targets.ts';

/** A receiver has this long to answer; the lease (webhook-worker.ts) is longer. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** The answer's body is read (so the connection can be reused) up to this much, then the connection is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** How one POST went: the status the receiver answered, or why there was none. */
export type SendResult = { statusCode: number | null; error: string | null };

export type WebhookSender = {
  send(target: { url: string; mode: Mode }, headers: WebhookHeaders, body: string, stop: AbortSignal): Promise<SendResult>;
  close(): void;
};

/**
 * POSTs over node:http(s), which never follows a redirect: a 3xx is an answer like any other
 * non-2xx. Live connections resolve through publicOnlyLookup; each mode keeps its own
 * keep-alive pool, so a test endpoint's connection is never reused for a live one.
 */
export function webhookSender(): WebhookSender {
  const agents = {
    test: { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) },
    live: { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) },
  };

  function send(target: { url: string; mode: Mode }, headers: WebhookHeaders, body: string, stop: AbortSignal): Promise<SendResult> {
    const url = new URL(target.url);
    const live = target.mode === 'live';
    if (live) {
      if (url.protocol !== 'https:') return Promise.resolve({ statusCode: null, error: 'refused: live endpoints must be https' });
      const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
      const refused = isIP(host) ? nonPublicReason(host) : null;
      if (refused) return Promise.resolve({ statusCode: null, error: `refused: the address is ${refused}` });
    }
    const protocol = url.protocol === 'https:' ? 'https:' : 'http:';
    const transport = protocol === 'https:' ? https : http;
    const timeout = AbortSignal.timeout(ATTEMPT_TIMEOUT_MS);
    const signal = AbortSignal.any([timeout, stop]);
    return new Promise((resolve) => {
      const request = transport.request(
        url,
        {
          method: 'POST',
          agent: agents[target.mode][protocol],
          signal,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Payframe-Webhooks' },
          ...(live ? { lookup: publicOnlyLookup } : {}),
        },
        (response) => {
          resolve({ statusCode: response.statusCode ?? null, error: null });
          let received = 0;
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > MAX_RESPONSE_BYTES) response.destroy();
          });
          response.on('error', () => {});
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (timeout.aborted) resolve({ statusCode: null, error: `timeout: no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` });
        else if (stop.aborted) resolve({ statusCode: null, error: 'interrupted: the server stopped during the attempt' });
        else resolve({ statusCode: null, error: describe(error) });
      });
      request.end(body);
    });
  }

  return {
    send,
    close() {
      for (const byProtocol of Object.values(agents)) for (const agent of Object.values(byProtocol)) agent.destroy();
    },
  };
}

function describe(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRNOTPUBLIC') return error.message;
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN') return 'the hostname does not resolve';
  return `connection failed: ${error.code ?? error.message}`;
}
