import { chmod, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { type Event, Payframe, PayframeError, SignatureVerificationError } from '@payframe/node';
import type { Shop } from './context.ts';
import type { Reply } from './http.ts';
import { settle } from './settle.ts';

export const WEBHOOK_PATH = '/webhooks/payframe';
/** Both 3-D Secure outcomes that allow a capture (Y, and U: the issuer could not be reached), and expiry. */
const EVENTS = ['charge.authentication_succeeded', 'charge.authentication_unavailable', 'charge.expired'] as const;
const BODY_LIMIT = 256 * 1024;
/** Event ids already handled: Payframe delivers at least once, so a repeat is answered 200 and ignored. */
const HANDLED_LIMIT = 10_000;

type SavedEndpoint = { id: string; url: string; secret: string };

/**
 * Registers the shop's webhook endpoint (`/webhooks/payframe` on its public URL) and answers its
 * signing secret. The endpoint and secret are kept in the shop's data directory (0600): after a
 * restart on the same URL the shop reuses them, so deliveries queued while it was down still reach
 * it; on a new URL it deletes the old endpoint and creates another.
 */
export async function registerWebhookEndpoint(payframe: Payframe, dataDir: string, shopUrl: string): Promise<string> {
  const file = join(dataDir, 'webhook-endpoint.json');
  const url = `${shopUrl}${WEBHOOK_PATH}`;
  const saved = await readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as SavedEndpoint,
    () => undefined,
  );
  if (saved) {
    const existing = await payframe.webhookEndpoints.retrieve(saved.id).catch(ignoreMissing);
    if (existing && saved.url === url) return saved.secret;
    if (existing) await payframe.webhookEndpoints.del(saved.id).catch(ignoreMissing);
  }
  const created = await payframe.webhookEndpoints.create({ url, events: [...EVENTS], description: 'Payframe demo shop' });
  await writeFile(file, JSON.stringify({ id: created.id, url, secret: created.secret } satisfies SavedEndpoint), { mode: 0o600 });
  await chmod(file, 0o600);
  return created.secret;
}

function ignoreMissing(error: unknown): undefined {
  if (error instanceof PayframeError && error.status === 404) return undefined;
  throw error;
}

/**
 * POST /webhooks/payframe: verifies the delivery on its raw body, then acts on it. A shopper who
 * authenticated 3-D Secure and never came back still gets the order captured; an expired charge
 * marks its order expired. Any failure to act answers an error status, so Payframe retries later.
 */
export function webhookReceiver(): (shop: Shop, request: IncomingMessage) => Promise<Reply> {
  const handled = new Set<string>();
  return async (shop, request) => {
    if (!shop.webhookSecret) return { status: 503, body: 'not ready' };
    const body = await readRawBody(request);
    if (body === null) return { status: 413, body: 'too large' };
    let event: Event;
    try {
      event = Payframe.webhooks.constructEvent(body, request.headers, shop.webhookSecret);
    } catch (error) {
      if (error instanceof SignatureVerificationError) return { status: 400, body: 'bad signature' };
      throw error;
    }
    if (handled.has(event.id)) return { status: 200, body: 'already handled' };
    const order = shop.orders.byCharge(event.data.object.id);
    if (order) {
      if (event.name === 'charge.authentication_succeeded' || event.name === 'charge.authentication_unavailable') await settle(shop, order);
      if (event.name === 'charge.expired') await shop.orders.save({ ...(shop.orders.get(order.id) ?? order), expired: true });
    }
    if (handled.size >= HANDLED_LIMIT) handled.delete(handled.values().next().value as string);
    handled.add(event.id);
    return { status: 200, body: 'ok' };
  };
}

async function readRawBody(request: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
