import { setTimeout as sleep } from 'node:timers/promises';
import { generateWebhookSecret, signWebhook } from '@payframe/contract/webhook-signing';
import { type EventSourceMessage, EventSourceParserStream } from 'eventsource-parser/stream';
import { parsedArgs, UsageError } from './args.ts';

const OPTIONS = { 'forward-to': { type: 'string' }, 'api-key': { type: 'string' }, 'api-base': { type: 'string' } } as const;
const DEFAULT_API_BASE = 'http://127.0.0.1:4000';
/** As the delivery worker: a receiver that takes longer has failed this event. */
const FORWARD_TIMEOUT_MS = 10_000;
const MAX_RECONNECT_DELAY_MS = 5_000;

/**
 * `payframe listen`: reads the account's live event stream and POSTs each event to a local URL,
 * signed the Standard Webhooks way with a secret made for this run, so a developer's machine gets
 * webhooks from a server that cannot reach it (docs/webhooks.md, "payframe listen"). A dropped
 * stream is read again from the last event forwarded (Last-Event-ID): none is missed or repeated.
 */
export async function listenCommand(args: string[]): Promise<void> {
  const { values } = parsedArgs({ args, options: OPTIONS, strict: true });
  const forwardTo = values['forward-to'];
  const apiKey = values['api-key'];
  if (!forwardTo || !URL.canParse(forwardTo)) throw new UsageError('listen needs --forward-to URL');
  if (!apiKey?.startsWith('sk_test_')) throw new UsageError('listen needs --api-key with a test-mode secret key (sk_test_…)');
  const streamUrl = new URL('/v2/events/stream', values['api-base'] ?? DEFAULT_API_BASE);

  const secret = generateWebhookSecret();
  console.log(`Forwarding events of ${streamUrl.origin} to ${forwardTo}`);
  console.log(`Webhook signing secret: ${secret}`);

  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());

  let lastEventId: string | undefined;
  let connected = false;
  let failures = 0;
  while (!stop.signal.aborted) {
    try {
      const response = await fetch(streamUrl, {
        headers: { 'x-api-key': apiKey, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        signal: stop.signal,
      });
      if (!response.ok || !response.body) {
        const text = await response.text();
        // The key or the resume point is wrong: trying again would not change the answer.
        if (response.status >= 400 && response.status < 500) throw new FatalError(`the stream answered ${response.status}: ${text}`);
        throw new Error(`the stream answered ${response.status}`);
      }
      console.log(lastEventId ? `Connected again, resuming after ${lastEventId}` : 'Ready: listening for events');
      failures = 0;
      connected = true;
      const messages = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      for (let next = await messages.read(); !next.done; next = await messages.read()) {
        await forward(forwardTo, secret, next.value);
        lastEventId = next.value.id;
      }
      if (!stop.signal.aborted) console.log('The stream ended; connecting again');
    } catch (error) {
      if (error instanceof FatalError) throw error;
      if (stop.signal.aborted) break;
      failures += 1;
      console.log(`${connected ? 'Stream lost' : 'Cannot reach the stream'} (${reasonOf(error)}); connecting again`);
      await sleep(Math.min(MAX_RECONNECT_DELAY_MS, 250 * 2 ** failures), undefined, { signal: stop.signal }).catch(() => undefined);
    }
  }
}

class FatalError extends Error {}

/** fetch says only "fetch failed"; the reason (ECONNREFUSED 127.0.0.1:3000, a timeout…) is its cause. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : null;
  return cause ? `${error.message}: ${cause.message}` : error.message;
}

/** One POST, as the delivery worker sends it; the receiver's answer is shown, not retried. */
async function forward(url: string, secret: string, message: EventSourceMessage): Promise<void> {
  const id = message.id ?? '';
  const headers = signWebhook(secret, { id, timestamp: Math.floor(Date.now() / 1000), body: message.data });
  let outcome: string;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: message.data,
      redirect: 'manual',
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    outcome = String(response.status);
  } catch (error) {
    outcome = `failed: ${reasonOf(error)}`;
  }
  console.log(`${new Date().toISOString()}  --> ${message.event ?? 'message'} [${id}]  <-- ${outcome}`);
}
