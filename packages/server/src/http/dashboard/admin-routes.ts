import {
  AdvanceClockBodySchema,
  ApiKeyListSchema,
  ApiKeyRowSchema,
  CreatedApiKeysSchema,
  CreatedWebhookEndpointSchema,
  CreateWebhookEndpointBodySchema,
  DashboardAccountSchema,
  DashboardModeQuerySchema,
  DashboardPageQuerySchema,
  DeletedWebhookEndpointSchema,
  ErrorBodySchema,
  type Mode,
  ResourceIdParamsSchema,
  TestClockSchema,
  UpdateAccountBodySchema,
  UpdateWebhookEndpointBodySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
} from '@payframe/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accountView, renameAccount } from '../../services/accounts.ts';
import type { ApiKeyCache } from '../../services/api-key-cache.ts';
import type { Caller, ServiceDeps, Store } from '../../services/context.ts';
import { createOwnerKeys, listOwnerKeys, revokeOwnerKey } from '../../services/dashboard-keys.ts';
import { sessionCaller } from '../../services/dashboard-sessions.ts';
import { advanceTestClock, testClockView } from '../../services/test-clock.ts';
import { createEndpoint, deleteEndpoint, listEndpoints, updateEndpointFields, vetEndpointUrl } from '../../services/webhook-endpoints.ts';
import { refuseOtherMethods } from '../routes/refuse-other-methods.ts';
import { sessionOf } from './session-hooks.ts';

const byId = { params: ResourceIdParamsSchema, querystring: DashboardModeQuerySchema };
const errors = { default: ErrorBodySchema };

/** API keys, webhook endpoints, the test clock and the account's name, for the session's account. */
export function adminRoutes(store: Store, deps: ServiceDeps, apiKeys: ApiKeyCache) {
  const callerOf = (request: FastifyRequest, mode: Mode): Caller => sessionCaller(sessionOf(request), mode, deps.clock);

  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get('/keys', { schema: { querystring: DashboardModeQuerySchema, response: { 200: ApiKeyListSchema, ...errors } } }, async (request) =>
      store.read((db) => listOwnerKeys(db, callerOf(request, request.query.mode))),
    );
    api.post('/keys', { schema: { querystring: DashboardModeQuerySchema, response: { 200: CreatedApiKeysSchema, ...errors } } }, async (request) => {
      const owner = callerOf(request, request.query.mode);
      return store.transaction((tx) => createOwnerKeys(tx, deps, owner));
    });
    api.post('/keys/:id/revoke', { schema: { ...byId, response: { 200: ApiKeyRowSchema, ...errors } } }, async (request) => {
      const owner = callerOf(request, request.query.mode);
      const revoked = await store.transaction((tx) => revokeOwnerKey(tx, deps, owner, request.params.id));
      // Refused at once here; other instances drop it on their next poll (services/api-key-cache.ts).
      apiKeys.forget();
      return revoked;
    });

    api.get(
      '/webhook_endpoints',
      { schema: { querystring: DashboardPageQuerySchema, response: { 200: WebhookEndpointListSchema, ...errors } } },
      async (request) => {
        const { mode, ...page } = request.query;
        return store.read((db) => listEndpoints(db, callerOf(request, mode), page));
      },
    );
    api.post(
      '/webhook_endpoints',
      { schema: { querystring: DashboardModeQuerySchema, body: CreateWebhookEndpointBodySchema, response: { 200: CreatedWebhookEndpointSchema, ...errors } } },
      async (request) => {
        const caller = callerOf(request, request.query.mode);
        await vetEndpointUrl(caller.mode, request.body.url);
        return store.transaction((tx) => createEndpoint(tx, deps, caller, request.body));
      },
    );
    api.post(
      '/webhook_endpoints/:id',
      { schema: { ...byId, body: UpdateWebhookEndpointBodySchema, response: { 200: WebhookEndpointSchema, ...errors } } },
      async (request) => {
        const caller = callerOf(request, request.query.mode);
        if (request.body.url !== undefined) await vetEndpointUrl(caller.mode, request.body.url);
        return store.transaction((tx) => updateEndpointFields(tx, caller, request.params.id, request.body));
      },
    );
    api.delete('/webhook_endpoints/:id', { schema: { ...byId, response: { 200: DeletedWebhookEndpointSchema, ...errors } } }, async (request) => {
      const caller = callerOf(request, request.query.mode);
      return store.transaction((tx) => deleteEndpoint(tx, deps, caller, request.params.id));
    });

    // The test clock is the account's test-mode clock: it has no mode parameter.
    api.get('/clock', { schema: { response: { 200: TestClockSchema, ...errors } } }, async (request) =>
      testClockView(deps.clock.now(), sessionOf(request).testClockOffset),
    );
    api.post('/clock', { schema: { body: AdvanceClockBodySchema, response: { 200: TestClockSchema, ...errors } } }, async (request) => {
      const { accountId } = sessionOf(request);
      const moved = await store.transaction((tx) => advanceTestClock(tx, accountId, request.body.advance_seconds, deps.clock.now()));
      apiKeys.forget();
      return moved;
    });

    api.get('/account', { schema: { response: { 200: DashboardAccountSchema, ...errors } } }, async (request) =>
      store.read((db) => accountView(db, sessionOf(request).accountId)),
    );
    api.post('/account', { schema: { body: UpdateAccountBodySchema, response: { 200: DashboardAccountSchema, ...errors } } }, async (request) => {
      const { accountId } = sessionOf(request);
      return store.transaction((tx) => renameAccount(tx, accountId, request.body.name));
    });

    refuseOtherMethods(app, '/keys', ['GET', 'POST']);
    refuseOtherMethods(app, '/keys/:id/revoke', ['POST']);
    refuseOtherMethods(app, '/webhook_endpoints', ['GET', 'POST']);
    refuseOtherMethods(app, '/webhook_endpoints/:id', ['POST', 'DELETE']);
    refuseOtherMethods(app, '/clock', ['GET', 'POST']);
    refuseOtherMethods(app, '/account', ['GET', 'POST']);
  };
}
