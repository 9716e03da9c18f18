import {
  AdvanceClockBodySchema,
  AuthenticateBodySchema,
  ChargeSchema,
  ErrorBodySchema,
  ResourceIdParamsSchema,
  TestClockSchema,
  TokenSchema,
} from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ApiKeyCache } from '../../services/api-key-cache.ts';
import type { ServiceDeps, Store } from '../../services/context.ts';
import { expireChargeNow, expireTokenNow } from '../../services/expire-now.ts';
import { advanceTestClock, storedTestClock } from '../../services/test-clock.ts';
import { authenticateCharge } from '../../services/threeds-result.ts';
import { idempotent } from '../idempotency.ts';
import { authOf, callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './refuse-other-methods.ts';

/**
 * Secret realm, test-helper scope. Test-mode shortcuts for QA: move the account's clock, settle
 * 3-D Secure without a browser, expire one charge or token now (parallel-safe: no clock moves).
 */
export function testHelperRoutes(store: Store, deps: ServiceDeps, keys: ApiKeyCache) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/test_helpers/clock',
      { schema: { summary: "Read the account's test clock", response: { 200: TestClockSchema, default: ErrorBodySchema } } },
      // Read from the database: what QA reads here is exact at once on every instance.
      async (request) => store.read((db) => storedTestClock(db, authOf(request).accountId, deps.clock.now())),
    );
    api.post(
      '/test_helpers/clock',
      {
        schema: {
          summary: "Move the account's test clock forward",
          body: AdvanceClockBodySchema,
          response: { 200: TestClockSchema, default: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const { accountId } = authOf(request);
        const seconds = request.body.advance_seconds;
        const moved = await idempotent(store, deps, request, reply, (tx) => advanceTestClock(tx, accountId, seconds, deps.clock.now()));
        // Cached keys carry the old offset: this instance's next request must see the new one.
        keys.forget();
        return moved;
      },
    );
    refuseOtherMethods(app, '/test_helpers/clock', ['GET', 'POST']);

    api.post(
      '/test_helpers/charges/:id/authenticate',
      {
        schema: {
          summary: 'Complete or fail 3-D Secure for a charge, as the shopper would on the hosted page',
          params: ResourceIdParamsSchema,
          body: AuthenticateBodySchema,
          response: { 200: ChargeSchema, default: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request, deps.clock);
        const { id } = request.params;
        const { result } = request.body;
        return idempotent(store, deps, request, reply, (tx) => authenticateCharge(tx, deps, caller, id, result));
      },
    );
    refuseOtherMethods(app, '/test_helpers/charges/:id/authenticate', ['POST']);

    api.post(
      '/test_helpers/charges/:id/expire',
      {
        schema: {
          summary: 'Expire one pending charge now, as its 7-day deadline would, without moving any clock',
          params: ResourceIdParamsSchema,
          response: { 200: ChargeSchema, default: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request, deps.clock);
        return idempotent(store, deps, request, reply, (tx) => expireChargeNow(tx, deps, caller, request.params.id));
      },
    );
    refuseOtherMethods(app, '/test_helpers/charges/:id/expire', ['POST']);

    api.post(
      '/test_helpers/tokens/:id/expire',
      {
        schema: {
          summary: "End one unused token's 15 minutes now, without moving any clock",
          params: ResourceIdParamsSchema,
          response: { 200: TokenSchema, default: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request, deps.clock);
        return idempotent(store, deps, request, reply, (tx) => expireTokenNow(tx, caller, request.params.id));
      },
    );
    refuseOtherMethods(app, '/test_helpers/tokens/:id/expire', ['POST']);
  };
}
