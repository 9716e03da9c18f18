import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preSerializationHookHandler } from 'fastify';
import type { Metrics } from './registry.ts';

/** Requests that matched no route share one label: raw URLs would carry ids and grow without bound. */
const UNMATCHED = 'unmatched';

/** The acquirer's answers on POST /v2/charges that count as declines (other 402s are the caller's mistakes). */
const DECLINE_CODES = new Set(['DECLINED', 'EXPIRED_CARD', 'INCORRECT_CVC']);

const CHARGE_CREATE = 'POST /v2/charges';
/** A capture is counted wherever it is made: through the API or from the dashboard. */
const CHARGE_CAPTURES = new Set(['POST /v2/charges/capture/:id', 'POST /dashboard/api/charges/:id/capture']);
const CHARGE_ROUTES = new Set([CHARGE_CREATE, ...CHARGE_CAPTURES]);

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? UNMATCHED;
}

/**
 * Counts and times every response by route pattern and status, and the charge outcomes on the
 * routes that make them (a hook of their own: no other request pays for it).
 */
export function instrumentHttp(app: FastifyInstance, metrics: Metrics): void {
  // Callback hooks: an async one costs a promise per response.
  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: routeOf(request), status: String(reply.statusCode) };
    metrics.requests.inc(labels);
    metrics.requestDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  // The charge a route answers, as an object: read before it becomes text rather than parsed back.
  const answers = new WeakMap<FastifyRequest, unknown>();
  const keepAnswer: preSerializationHookHandler<unknown> = (request, _reply, payload, done) => {
    answers.set(request, payload);
    done(null, payload);
  };
  const countOutcome: onSendHookHandler = (request, reply, payload, done) => {
    if (reply.getHeader('idempotent-replayed') === undefined) {
      countChargeOutcome(metrics, `${request.method} ${routeOf(request)}`, request, reply, payload, answers.get(request));
    }
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((method) => CHARGE_ROUTES.has(`${method} ${route.url}`))) {
      route.preSerialization = [...hooksOf(route.preSerialization), keepAnswer];
      route.onSend = [...hooksOf(route.onSend), countOutcome];
    }
  });
}

function hooksOf<H>(hooks: H | H[] | undefined): H[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}

function countChargeOutcome(metrics: Metrics, route: string, request: FastifyRequest, reply: FastifyReply, payload: unknown, answer: unknown): void {
  if (typeof payload !== 'string') return;
  if (reply.statusCode === 200) {
    const currency = currencyOf(answer);
    if (currency) metrics.charges.inc({ outcome: route === CHARGE_CREATE ? 'created' : 'captured', currency });
  } else if (reply.statusCode === 402 && route === CHARGE_CREATE) {
    const code = (parse(payload) as { error?: { code?: unknown } } | undefined)?.error?.code;
    // The body was parsed by the contract's schema by then: an active ISO 4217 code, upper case.
    const currency = currencyOf(request.body);
    if (typeof code === 'string' && DECLINE_CODES.has(code) && currency) metrics.charges.inc({ outcome: 'declined', currency });
  }
}

function parse(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return undefined;
  }
}

/** Only a three-letter code makes a label: nothing else from a body may reach one. */
function currencyOf(value: unknown): string | undefined {
  const currency = (value as { currency?: unknown } | undefined)?.currency;
  return typeof currency === 'string' && /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : undefined;
}
