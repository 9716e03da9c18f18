import {
  AdvanceClockBodySchema,
  AuthenticateBodySchema,
  ChargeSchema,
  ErrorBodySchema,
  ResourceIdParamsSchema,
  TestClockSchema,
} from '@payframe/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authenticateCharge } from '../../services/charge-moves.ts';
import type { ServiceDeps } from '../../services/context.ts';
import type { Store } from '../../storage/db.ts';
import { advanceTestClock, testClockView } from '../../services/test-clock.ts';
import { runMutation, succeeded } from '../mutation.ts';
import { authOf, callerOf } from '../request-context.ts';
import { refuseOtherMethods } from './define.ts';

const testOnly = { testOnly: true } as const;

/** Test-mode shortcuts for QA: move the account's clock, settle 3-D Secure without a browser. */
export function testHelperRoutes(store: Store, deps: ServiceDeps) {
  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/test_helpers/clock',
      { config: testOnly, schema: { summary: "Read the account's test clock", response: { 200: TestClockSchema, default: ErrorBodySchema } } },
      async (request) => testClockView(Date.now(), authOf(request).testClockOffset),
    );
    api.post(
      '/test_helpers/clock',
      {
        config: testOnly,
        schema: {
          summary: "Move the account's test clock forward",
          body: AdvanceClockBodySchema,
          response: { 200: TestClockSchema, default: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const { accountId } = authOf(request);
        const seconds = request.body.advance_seconds;
        return runMutation(store, request, reply, async (tx) => succeeded(await advanceTestClock(tx, accountId, seconds, Date.now())));
      },
    );
    refuseOtherMethods(app, '/test_helpers/clock', ['GET', 'POST'], testOnly);

    api.post(
      '/test_helpers/charges/:id/authenticate',
      {
        config: testOnly,
        schema: {
          summary: 'Complete or fail 3-D Secure for a charge, as the shopper would on the hosted page',
          params: ResourceIdParamsSchema,
          body: AuthenticateBodySchema,
          response: { 200: ChargeSchema, default: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request);
        const { id } = request.params;
        const { result } = request.body;
        return runMutation(store, request, reply, async (tx) => succeeded(await authenticateCharge(tx, deps, caller, id, result)));
      },
    );
    refuseOtherMethods(app, '/test_helpers/charges/:id/authenticate', ['POST'], testOnly);
  };
}
