import {
  CaptureChargeBodySchema,
  ChargeSchema,
  CreateRefundBodySchema,
  DashboardChargeListSchema,
  DashboardChargesQuerySchema,
  DashboardEventsQuerySchema,
  DashboardModeQuerySchema,
  ErrorBodySchema,
  EventListSchema,
  type Mode,
  PayframeError,
  RefundSchema,
  ResendEventBodySchema,
  ResourceIdParamsSchema,
  WebhookDeliveryListSchema,
} from '@payframe/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { cancelCharge, captureCharge } from '../../services/capture.ts';
import { retrieveCharge } from '../../services/charges.ts';
import type { Caller, ServiceDeps, Store } from '../../services/context.ts';
import { chargeSearchMatches } from '../../services/dashboard-charge-search.ts';
import { sessionCaller } from '../../services/dashboard-sessions.ts';
import { eventDeliveries, resendEvent } from '../../services/event-deliveries.ts';
import { listDashboardCharges, listEvents } from '../../services/lists.ts';
import { refundCharge } from '../../services/refunds.ts';
import { refuseOtherMethods } from '../routes/refuse-other-methods.ts';
import { chargesExport } from './charges-export.ts';
import { sessionOf } from './session-hooks.ts';

const chargeResponse = { 200: ChargeSchema, default: ErrorBodySchema };
const deliveriesResponse = { 200: WebhookDeliveryListSchema, default: ErrorBodySchema };
const chargeIdRoute = { params: ResourceIdParamsSchema, querystring: DashboardModeQuerySchema };

function sendJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** Charges, their events and webhook deliveries, through the services /v2 uses, for the session's account. */
export function chargeRoutes(store: Store, deps: ServiceDeps) {
  const callerOf = (request: FastifyRequest, mode: Mode): Caller => sessionCaller(sessionOf(request), mode, deps.clock);
  // As on /v2: money does not move in live mode while no acquirer is configured.
  const movingMoney = (request: FastifyRequest, mode: Mode): Caller => {
    if (mode === 'live' && deps.liveAcquirer === null) {
      throw new PayframeError('LIVE_MODE_NOT_ALLOWED', 'Live mode is not enabled on this server: no acquirer is configured.');
    }
    return callerOf(request, mode);
  };

  return async (app: FastifyInstance) => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/charges',
      { schema: { querystring: DashboardChargesQuerySchema, response: { 200: DashboardChargeListSchema, default: ErrorBodySchema } } },
      async (request) => {
        const { mode, q, ...query } = request.query;
        const matches = q === undefined ? undefined : chargeSearchMatches(q);
        return store.read((db) => listDashboardCharges(db, deps, callerOf(request, mode), query, matches));
      },
    );
    api.get('/charges/export', { schema: { querystring: DashboardChargesQuerySchema } }, async (request, reply) => {
      const { mode, q, limit: _limit, starting_after: _after, ending_before: _before, ...filters } = request.query;
      const caller = callerOf(request, mode);
      const matches = q === undefined ? undefined : chargeSearchMatches(q);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="charges-${mode}-${new Date(caller.now).toISOString().slice(0, 10)}.csv"`)
        .header('cache-control', 'no-store')
        .send(chargesExport(store, deps, caller, filters, matches));
    });
    api.get('/charges/:id', { schema: { ...chargeIdRoute, response: chargeResponse } }, async (request) =>
      store.read((db) => retrieveCharge(db, deps, callerOf(request, request.query.mode), request.params.id)),
    );
    api.post('/charges/:id/capture', { schema: { ...chargeIdRoute, body: CaptureChargeBodySchema, response: chargeResponse } }, async (request) => {
      const caller = movingMoney(request, request.query.mode);
      return store.transaction((tx) => captureCharge(tx, deps, caller, request.params.id, request.body.amount));
    });
    api.post('/charges/:id/cancel', { schema: { ...chargeIdRoute, response: chargeResponse } }, async (request) => {
      const caller = movingMoney(request, request.query.mode);
      return store.transaction((tx) => cancelCharge(tx, deps, caller, request.params.id));
    });
    api.post(
      '/charges/:id/refund',
      { schema: { ...chargeIdRoute, body: CreateRefundBodySchema, response: { 200: RefundSchema, default: ErrorBodySchema } } },
      async (request) => {
        const caller = movingMoney(request, request.query.mode);
        return store.transaction((tx) => refundCharge(tx, deps, caller, request.params.id, request.body));
      },
    );

    api.get(
      '/events',
      { schema: { querystring: DashboardEventsQuerySchema, response: { 200: EventListSchema, default: ErrorBodySchema } } },
      async (request, reply) => {
        const { mode, ...query } = request.query;
        // Events are sent as the bytes recorded with the change, as /v2/events sends them.
        return sendJson(reply, await store.read((db) => listEvents(db, callerOf(request, mode), query)));
      },
    );
    api.get('/events/:id/deliveries', { schema: { ...chargeIdRoute, response: deliveriesResponse } }, async (request) =>
      store.read((db) => eventDeliveries(db, callerOf(request, request.query.mode), request.params.id)),
    );
    api.post('/events/:id/resend', { schema: { ...chargeIdRoute, body: ResendEventBodySchema, response: deliveriesResponse } }, async (request) => {
      const caller = callerOf(request, request.query.mode);
      return store.transaction((tx) => resendEvent(tx, deps, caller, request.params.id, request.body.endpoint));
    });

    refuseOtherMethods(app, '/charges', ['GET']);
    refuseOtherMethods(app, '/charges/export', ['GET']);
    refuseOtherMethods(app, '/charges/:id', ['GET']);
    refuseOtherMethods(app, '/charges/:id/capture', ['POST']);
    refuseOtherMethods(app, '/charges/:id/cancel', ['POST']);
    refuseOtherMethods(app, '/charges/:id/refund', ['POST']);
    refuseOtherMethods(app, '/events', ['GET']);
    refuseOtherMethods(app, '/events/:id/deliveries', ['GET']);
    refuseOtherMethods(app, '/events/:id/resend', ['POST']);
  };
}
