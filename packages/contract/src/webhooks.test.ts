import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from './events.ts';
import {
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointBodySchema,
  ResendEventBodySchema,
  UpdateWebhookEndpointBodySchema,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
} from './webhooks.ts';

function failingPaths(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } }): string[] {
  return result.error?.issues.map((issue) => issue.path.map(String).join('.')) ?? [];
}

describe('CreateWebhookEndpointBodySchema', () => {
  it('subscribes to every event when events is omitted', () => {
    expect(CreateWebhookEndpointBodySchema.parse({ url: 'https://shop.example/webhooks' })).toEqual({
      url: 'https://shop.example/webhooks',
      events: [...EVENT_NAMES],
    });
  });

  it('keeps the named events once each, and the description', () => {
    const body = CreateWebhookEndpointBodySchema.parse({
      url: 'http://127.0.0.1:3000/webhooks/payframe',
      events: ['charge.captured', 'charge.expired', 'charge.captured'],
      description: 'Shop',
    });
    expect(body).toEqual({ url: 'http://127.0.0.1:3000/webhooks/payframe', events: ['charge.captured', 'charge.expired'], description: 'Shop' });
  });

  it('takes a null description as none, as an endpoint without one shows it', () => {
    expect(CreateWebhookEndpointBodySchema.parse({ url: 'https://shop.example/hook', description: null }).description).toBeNull();
  });

  it.each([
    [{}, 'url'],
    [{ url: 'ftp://shop.example/hook' }, 'url'],
    [{ url: '/webhooks' }, 'url'],
    [{ url: 'https://user:pass@shop.example/hook' }, 'url'],
    [{ url: 'https://shop.example/hook', events: [] }, 'events'],
    [{ url: 'https://shop.example/hook', events: 'charge.created' }, 'events'],
    [{ url: 'https://shop.example/hook', events: ['charge.paid'] }, 'events.0'],
    [{ url: 'https://shop.example/hook', description: 'x'.repeat(1001) }, 'description'],
  ])('refuses %j on %s', (body, parameter) => {
    expect(failingPaths(CreateWebhookEndpointBodySchema.safeParse(body))).toEqual([parameter]);
  });
});

describe('webhook resources', () => {
  const endpoint = {
    type: 'webhook_endpoint',
    id: 'we_1',
    url: 'https://shop.example/hook',
    events: ['charge.created'],
    description: null,
    disabled: false,
    created: 1795342555,
    mode: 'live',
  };

  it('shows the secret only in the create answer, as whsec_ and 32 bytes of base64', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(CreatedWebhookEndpointSchema.parse({ ...endpoint, secret }).secret).toBe(secret);
    expect(failingPaths(CreatedWebhookEndpointSchema.safeParse({ ...endpoint, secret: `whsec_${Buffer.alloc(16).toString('base64')}` }))).toEqual(['secret']);
    expect(WebhookEndpointSchema.parse({ ...endpoint, secret })).not.toHaveProperty('secret');
  });

  it('describes a delivery and refuses an unknown status', () => {
    const delivery = {
      type: 'webhook_delivery',
      endpoint: 'we_1',
      event: 'evt_1',
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      last_error: null,
      next_attempt: 1795342615,
    };
    expect(WebhookDeliverySchema.parse(delivery)).toEqual(delivery);
    expect(failingPaths(WebhookDeliverySchema.safeParse({ ...delivery, status: 'retrying' }))).toEqual(['status']);
  });

  it('resends to one endpoint or, without one, to all', () => {
    expect(ResendEventBodySchema.parse({})).toEqual({});
    expect(ResendEventBodySchema.parse({ endpoint: 'we_1' })).toEqual({ endpoint: 'we_1' });
    expect(failingPaths(ResendEventBodySchema.safeParse({ endpoint: '' }))).toEqual(['endpoint']);
  });
});

describe('UpdateWebhookEndpointBodySchema', () => {
  it('takes any of url, events, description and disabled; disabled as a JSON boolean or a form word', () => {
    expect(UpdateWebhookEndpointBodySchema.parse({})).toEqual({});
    expect(UpdateWebhookEndpointBodySchema.parse({ disabled: 'true' })).toEqual({ disabled: true });
    expect(UpdateWebhookEndpointBodySchema.parse({ disabled: false, events: ['charge.captured', 'charge.captured'] })).toEqual({
      disabled: false,
      events: ['charge.captured'],
    });
    expect(UpdateWebhookEndpointBodySchema.parse({ description: null })).toEqual({ description: null });
  });

  it('refuses what the create refuses, an unknown name and a word that is no boolean', () => {
    expect(failingPaths(UpdateWebhookEndpointBodySchema.safeParse({ disabled: 'yes' }))).toEqual(['disabled']);
    expect(failingPaths(UpdateWebhookEndpointBodySchema.safeParse({ events: [] }))).toEqual(['events']);
    expect(failingPaths(UpdateWebhookEndpointBodySchema.safeParse({ url: 'ftp://x.test/' }))).toEqual(['url']);
    expect(UpdateWebhookEndpointBodySchema.safeParse({ enabled: true }).success).toBe(false);
  });
});
