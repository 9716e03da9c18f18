import { createHmac, randomBytes } from 'node:crypto';

// The Standard Webhooks signing scheme (standardwebhooks.com), for whatever sends webhooks: the
// delivery worker and `payframe listen`. Node only, so it is not part of the contract's index.
// Receivers verify with @payframe/node's constructEvent or any Standard Webhooks library.

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export type WebhookHeaders = { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string };

/** The three headers of one attempt; `timestamp` is the attempt's real time in epoch seconds. */
export function signWebhook(secret: string, message: { id: string; timestamp: number; body: string }): WebhookHeaders {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error(`a webhook secret starts with ${WEBHOOK_SECRET_PREFIX}`);
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  const signature = createHmac('sha256', key).update(`${message.id}.${message.timestamp}.${message.body}`).digest('base64');
  return { 'webhook-id': message.id, 'webhook-timestamp': String(message.timestamp), 'webhook-signature': `v1,${signature}` };
}
