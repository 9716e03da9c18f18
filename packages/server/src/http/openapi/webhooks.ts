import { EVENT_NAMES } from '@payframe/contract';

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', in: 'header', required: true, description: 'The event id, the same on every retry: deduplicate by it.', schema: { type: 'string' } },
  { name: 'webhook-timestamp', in: 'header', required: true, description: 'Epoch seconds of this attempt.', schema: { type: 'string', pattern: '^\\d+$' } },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">',
    schema: { type: 'string' },
  },
];

/** OpenAPI 3.1 `webhooks`: what Payframe POSTs to an endpoint for each event name (docs/webhooks.md). */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(
    EVENT_NAMES.map((name) => [
      name,
      {
        post: {
          operationId: `webhook_${name.replace('.', '_')}`,
          summary: `The ${name} event, delivered to an endpoint that takes it`,
          tags: ['Webhooks'],
          parameters: SIGNATURE_HEADERS,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { allOf: [{ $ref: '#/components/schemas/Event' }, { type: 'object', properties: { name: { const: name } }, required: ['name'] }] },
              },
            },
          },
          responses: {
            '2XX': { description: 'Delivered: any 2xx within 10 s. Anything else is retried on the schedule of docs/webhooks.md.' },
          },
        },
      },
    ]),
  );
}
