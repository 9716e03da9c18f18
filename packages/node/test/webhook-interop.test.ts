import { generateWebhookSecret, signWebhook } from '@payframe/contract/webhook-signing';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { constructEvent, SignatureVerificationError } from '../src/index.ts';

// The reference Standard Webhooks library and ours must agree both ways: merchants verify what
// Payframe signs with either, in any language.
const body = JSON.stringify({ type: 'event', id: 'evt_interop', name: 'charge.created', created: 1, mode: 'test', data: { object: { id: 'C1' } } });

describe('Standard Webhooks interoperability', () => {
  it('constructEvent accepts what the standardwebhooks library signs', () => {
    const secret = generateWebhookSecret();
    const timestamp = new Date();
    const signature = new Webhook(secret).sign('evt_interop', timestamp, body);
    const headers = { 'webhook-id': 'evt_interop', 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': signature };
    expect(constructEvent(body, headers, secret).id).toBe('evt_interop');
    expect(() => constructEvent(`${body} `, headers, secret)).toThrow(SignatureVerificationError);
  });

  it("the standardwebhooks library accepts what Payframe's signer signs, and so does constructEvent", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signWebhook(secret, { id: 'evt_interop', timestamp: Math.floor(Date.now() / 1000), body });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(constructEvent(body, headers, secret).id).toBe('evt_interop');
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });
});
