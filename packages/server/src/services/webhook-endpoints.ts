import {
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointBody,
  type DeletedWebhookEndpoint,
  type EventName,
  type ListPageQuery,
  type Mode,
  PayframeError,
  type UpdateWebhookEndpointBody,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from '@payframe/contract';
import { generateWebhookSecret } from '@payframe/contract/webhook-signing';
import { epochSeconds } from '../domain/clock.ts';
import { seal } from '../security/vault.ts';
import { refusedTarget } from '../security/webhook-targets.ts';
import { atomically } from '../storage/atomically.ts';
import type { PageWindow } from '../storage/repositories/keyset.ts';
import { failPendingDeliveriesOf } from '../storage/repositories/webhook-deliveries.ts';
import {
  countEndpoints,
  type EndpointChanges,
  endpointPage,
  findEndpoint,
  insertEndpoint,
  markEndpointDeleted,
  updateEndpoint,
} from '../storage/repositories/webhook-endpoints.ts';
import type { WebhookEndpointsTable } from '../storage/schema.ts';
import { serializeOn } from '../storage/serialize.ts';
import type { Caller, Db, ServiceDeps } from './context.ts';

const ENDPOINT_DELETED = 'endpoint deleted';

/** Per account and mode: with 4 attempts in flight per endpoint, one account's hanging receivers stay a bounded share of the sender. */
export const MAX_ENDPOINTS = 16;

function endpointView(row: WebhookEndpointsTable): WebhookEndpoint {
  return {
    type: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EventName[],
    description: row.description,
    disabled: row.disabled_at !== null,
    created: epochSeconds(row.created_at),
    mode: row.mode,
  };
}

/**
 * The mode's URL rules (security/webhook-targets.ts): live endpoints are https and resolve only to
 * public addresses. Run before the transaction: it may wait on DNS.
 */
export async function vetEndpointUrl(mode: Mode, url: string): Promise<void> {
  const refused = await refusedTarget(new URL(url), mode);
  if (refused) throw new PayframeError('PARAMETER_INVALID', `The webhook endpoint URL ${refused}.`, { parameter: 'url' });
}

/**
 * The signing secret is in this answer only; the database keeps it sealed, readable to sign. Runs in
 * one transaction, serialized with the owner's other creates so that the count holds.
 */
export function createEndpoint(db: Db, deps: ServiceDeps, caller: Caller, body: CreateWebhookEndpointBody): Promise<CreatedWebhookEndpoint> {
  return atomically(db, async (tx) => {
    await serializeOn(tx, [`webhook-endpoints:${caller.accountId}:${caller.mode}`]);
    if ((await countEndpoints(tx, caller)) >= MAX_ENDPOINTS) {
      throw new PayframeError(
        'LIMIT_EXCEEDED',
        `An account may have at most ${MAX_ENDPOINTS} webhook endpoints in each mode: delete one before adding another.`,
      );
    }
    const id = deps.ids.prefixed('we');
    const secret = generateWebhookSecret();
    const row: WebhookEndpointsTable = {
      id,
      account_id: caller.accountId,
      mode: caller.mode,
      url: body.url,
      events: JSON.stringify(body.events),
      description: body.description ?? null,
      secret_sealed: seal(deps.secrets.webhookSecretKey, id, secret),
      created_at: caller.now,
      deleted_at: null,
      disabled_at: null,
    };
    await insertEndpoint(tx, row);
    return { ...endpointView(row), secret };
  });
}

export async function retrieveEndpoint(db: Db, caller: Caller, id: string): Promise<WebhookEndpoint> {
  const row = await findEndpoint(db, caller, id);
  if (!row) throw new PayframeError('RESOURCE_MISSING', 'No such webhook endpoint.', { parameter: 'id' });
  return endpointView(row);
}

/**
 * Changes what was sent and keeps the rest. Disabling keeps the time it happened (an endpoint
 * disabled twice stays disabled since the first time); the URL is vetted before (vetEndpointUrl).
 */
export async function updateEndpointFields(db: Db, caller: Caller, id: string, body: UpdateWebhookEndpointBody): Promise<WebhookEndpoint> {
  return atomically(db, async (tx) => {
    const current = await findEndpoint(tx, caller, id);
    if (!current) throw new PayframeError('RESOURCE_MISSING', 'No such webhook endpoint.', { parameter: 'id' });
    const changes: EndpointChanges = {};
    if (body.url !== undefined) changes.url = body.url;
    if (body.events !== undefined) changes.events = JSON.stringify(body.events);
    if (body.description !== undefined) changes.description = body.description;
    if (body.disabled !== undefined && body.disabled !== (current.disabled_at !== null)) changes.disabled_at = body.disabled ? caller.now : null;
    const updated = await updateEndpoint(tx, caller, id, changes);
    if (!updated) throw new PayframeError('RESOURCE_MISSING', 'No such webhook endpoint.', { parameter: 'id' });
    return endpointView(updated);
  });
}

/** The window the cursor parameters ask for; a cursor that is not one of the caller's endpoints is a 400 on its parameter. */
async function windowOf(db: Db, caller: Caller, query: ListPageQuery): Promise<PageWindow> {
  const fetch = query.limit + 1;
  const [parameter, id] = query.starting_after !== undefined ? ['starting_after', query.starting_after] : ['ending_before', query.ending_before];
  if (id === undefined) return { cursor: null, fetch };
  const row = await findEndpoint(db, caller, id);
  if (!row) throw new PayframeError('RESOURCE_MISSING', 'No such webhook endpoint.', { parameter, status: 400 });
  return { cursor: { direction: parameter === 'starting_after' ? 'older' : 'newer', createdAt: row.created_at, tie: row.id }, fetch };
}

export async function listEndpoints(db: Db, caller: Caller, query: ListPageQuery): Promise<WebhookEndpointList> {
  const window = await windowOf(db, caller, query);
  const rows = await endpointPage(db, caller, window);
  const data = rows.slice(0, query.limit);
  if (window.cursor?.direction === 'newer') data.reverse();
  return { type: 'list', url: '/v2/webhook_endpoints', has_more: rows.length > query.limit, data: data.map(endpointView) };
}

/** Deleting ends the endpoint's pending deliveries: they are `failed` with `last_error: "endpoint deleted"`. */
export async function deleteEndpoint(db: Db, deps: ServiceDeps, caller: Caller, id: string): Promise<DeletedWebhookEndpoint> {
  if (!(await markEndpointDeleted(db, caller, id, deps.clock.now()))) {
    throw new PayframeError('RESOURCE_MISSING', 'No such webhook endpoint.', { parameter: 'id' });
  }
  await failPendingDeliveriesOf(db, id, ENDPOINT_DELETED);
  return { type: 'webhook_endpoint', id, deleted: true };
}
