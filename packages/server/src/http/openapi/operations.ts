/**
 * What the OpenAPI document says of each /v2 operation that its zod schemas cannot: its
 * operationId, tag, and whether it can answer 402 (a payment or a charge's state refused it).
 * Keyed by `METHOD path` as the document writes them; document.ts refuses an operation missing here.
 */
export type OperationFacts = { operationId: string; tag: string; payment?: true };

export const OPERATIONS: Record<string, OperationFacts> = {
  'POST /v2/tokens': { operationId: 'createToken', tag: 'Tokens', payment: true },
  'GET /v2/tokens/{id}': { operationId: 'retrieveToken', tag: 'Tokens' },
  'POST /v2/charges': { operationId: 'createCharge', tag: 'Charges', payment: true },
  'GET /v2/charges': { operationId: 'listCharges', tag: 'Charges' },
  'GET /v2/charges/{id}': { operationId: 'retrieveCharge', tag: 'Charges' },
  'POST /v2/charges/{id}': { operationId: 'updateCharge', tag: 'Charges' },
  'POST /v2/charges/capture/{id}': { operationId: 'captureCharge', tag: 'Charges', payment: true },
  'POST /v2/charges/cancel/{id}': { operationId: 'cancelCharge', tag: 'Charges', payment: true },
  'POST /v2/charges/refund/{id}': { operationId: 'createRefund', tag: 'Refunds', payment: true },
  'GET /v2/charges/refund/{id}': { operationId: 'retrieveRefund', tag: 'Refunds' },
  'GET /v2/refunds': { operationId: 'listRefunds', tag: 'Refunds' },
  'GET /v2/events': { operationId: 'listEvents', tag: 'Events' },
  'GET /v2/events/{id}': { operationId: 'retrieveEvent', tag: 'Events' },
  'GET /v2/events/stream': { operationId: 'streamEvents', tag: 'Events' },
  'GET /v2/events/{id}/deliveries': { operationId: 'listEventDeliveries', tag: 'Webhooks' },
  'POST /v2/events/resend/{id}': { operationId: 'resendEvent', tag: 'Webhooks' },
  'POST /v2/webhook_endpoints': { operationId: 'createWebhookEndpoint', tag: 'Webhooks' },
  'GET /v2/webhook_endpoints': { operationId: 'listWebhookEndpoints', tag: 'Webhooks' },
  'GET /v2/webhook_endpoints/{id}': { operationId: 'retrieveWebhookEndpoint', tag: 'Webhooks' },
  'POST /v2/webhook_endpoints/{id}': { operationId: 'updateWebhookEndpoint', tag: 'Webhooks' },
  'DELETE /v2/webhook_endpoints/{id}': { operationId: 'deleteWebhookEndpoint', tag: 'Webhooks' },
  'GET /v2/test_helpers/clock': { operationId: 'retrieveTestClock', tag: 'Test helpers' },
  'POST /v2/test_helpers/clock': { operationId: 'advanceTestClock', tag: 'Test helpers' },
  'POST /v2/test_helpers/charges/{id}/authenticate': { operationId: 'authenticateCharge', tag: 'Test helpers', payment: true },
  'POST /v2/test_helpers/charges/{id}/expire': { operationId: 'expireCharge', tag: 'Test helpers', payment: true },
  'POST /v2/test_helpers/tokens/{id}/expire': { operationId: 'expireToken', tag: 'Test helpers', payment: true },
};

export const TAGS = [
  { name: 'Tokens', description: 'Single-use card tokens' },
  { name: 'Charges', description: 'Charges: create, capture (in full or in part), cancel, update metadata, list' },
  { name: 'Refunds', description: 'Refunds of captured charges, and releases of uncaptured ones' },
  { name: 'Events', description: 'Every change of a charge, as it was recorded' },
  { name: 'Webhooks', description: 'Webhook endpoints and deliveries' },
  { name: 'Test helpers', description: 'Test-mode shortcuts: the test clock, 3-D Secure without a browser, one charge or token expired now' },
];
