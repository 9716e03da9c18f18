import cors from '@fastify/cors';
import { PayframeError } from '@payframe/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import type { Logger } from 'pino';
import { apiRoutes } from './http/api.ts';
import { BODY_LIMIT, parseQueryString } from './http/body-parsers.ts';
import { dashboardApiRoutes } from './http/dashboard/api.ts';
import { clientErrorHandler, installErrorHandler, PRE_ROUTING_HEADERS } from './http/error-handler.ts';
import { turnAwayWhileStopping } from './http/graceful-stop.ts';
import { registerOpenApi } from './http/openapi/index.ts';
import { answerProtocolEdges } from './http/protocol-edges.ts';
import { writeReadAnswersTogether } from './http/read-answers.ts';
import { lazyRequestLogger } from './http/request-logger.ts';
import { dashboardAssetRoutes } from './http/routes/dashboard-assets.ts';
import { healthRoutes } from './http/routes/health.ts';
import { refuseUnknownMethods } from './http/routes/refuse-other-methods.ts';
import { threeDSPageRoutes } from './http/routes/threeds-page.ts';
import { widgetAssetRoutes } from './http/routes/widget-assets.ts';
import { registerAnswerHeaders } from './http/security-headers.ts';
import { serializerCompiler } from './http/serializer.ts';
import { validatorCompiler } from './http/validator.ts';
import { newRequestId } from './ids.ts';
import { instrumentHttp } from './metrics/http-hooks.ts';
import { metricsRoute } from './metrics/metrics-route.ts';
import type { Metrics } from './metrics/registry.ts';
import { apiKeyCache } from './services/api-key-cache.ts';
import type { ServiceDeps, Store } from './services/context.ts';
import type { SessionLifetime } from './services/dashboard-sessions.ts';
import { startRequestLog } from './services/request-log.ts';

export type AppOptions = {
  store: Store;
  services: ServiceDeps;
  logger: Logger | false;
  trustProxy: string[];
  https?: { cert: Buffer; key: Buffer } | undefined;
  publishableRateLimit: number;
  secretRateLimit: number;
  /** True once the server has begun to stop (main.ts): see http/graceful-stop.ts. */
  stopping?: () => boolean;
  /** A whole request (headers and body) must arrive within this time; 0 leaves it unbounded. */
  requestTimeoutMs?: number;
  dashboardSessions: SessionLifetime;
  /** The server's public URL once known: dashboard mutations may come from its origin too. */
  publicUrl?: () => string | undefined;
  /** Keep the request log of /v2 (on unless false). */
  requestLog?: boolean;
  /** Request and charge series are recorded when given; `/metrics` is served on this port only with a token. */
  metrics?: { metrics: Metrics; token?: string | undefined } | undefined;
};

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { store, services } = options;
  const requestTimeoutMs = options.requestTimeoutMs ?? 0;
  const serverTimeouts = {
    requestTimeout: requestTimeoutMs,
    headersTimeout: requestTimeoutMs > 0 ? Math.min(60_000, requestTimeoutMs) : 60_000,
    connectionsCheckingInterval: 1_000,
    // Answered by http/protocol-edges.ts in the API's error shape instead of Node's empty 400.
    requireHostHeader: false,
  };
  const app = Fastify({
    // Every answer names its request (Request-Id), and so does every log line written for it: an id
    // unique across instances, never one a client chose (it would go into the log as sent).
    genReqId: newRequestId,
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    // As Fastify's base logger: typed as pino's own, every route and plugin would be typed with it.
    loggerInstance: (options.logger || undefined) as FastifyBaseLogger | undefined,
    logger: options.logger ? undefined : false,
    ...(options.logger ? { childLoggerFactory: lazyRequestLogger } : {}),
    bodyLimit: BODY_LIMIT,
    trustProxy: options.trustProxy.length > 0 ? options.trustProxy : false,
    // A client that trickles its body cannot hold a connection (and up to 1 MB of memory) for ever:
    // past the timeout Node answers through clientErrorHandler. Node enforces it only while the
    // headers timeout is no longer; connections are checked every second.
    requestTimeout: requestTimeoutMs,
    ...(options.https ? { https: { ...options.https, ...serverTimeouts } } : { http: serverTimeouts }),
    // Ids may be 255 characters (the contract's limit): longer path parameters are malformed URLs.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256, querystringParser: parseQueryString },
    // Errors raised before routing (a malformed URL such as /v2/%ZZ) bypass the error handler.
    frameworkErrors: (_error, request, reply) => {
      const error = new PayframeError('PARAMETER_INVALID', 'The request URL is malformed.');
      // No hooks run here (no helmet, no no-store hook): the headers that matter for a JSON error are set by hand.
      (reply as FastifyReply)
        .code(error.status)
        .headers({ ...PRE_ROUTING_HEADERS, 'request-id': request.id })
        .send(error.toBody());
    },
    clientErrorHandler,
    // Requests that arrive while stopping get http/graceful-stop.ts's 503 in the API's error shape,
    // not Fastify's own body.
    return503OnClosing: false,
  });

  refuseUnknownMethods(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('auth', null);
  installErrorHandler(app);
  // First: every answer, the early errors of the hooks below included, starts with these headers.
  registerAnswerHeaders(app, { crossOriginResourcePolicy: { policy: 'cross-origin' } });
  answerProtocolEdges(app);
  turnAwayWhileStopping(app, options.stopping ?? (() => false));
  writeReadAnswersTogether(app);

  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'DELETE'],
    allowedHeaders: ['X-Api-Key', 'Content-Type', 'Idempotency-Key'],
    credentials: false,
    maxAge: 600,
    // Every success of the API is 200 (docs/api.md, "Answers"): a browser takes any 2xx for a
    // preflight, and some clients take a 204 for a failure.
    optionsSuccessStatus: 200,
    // An OPTIONS without Origin or Access-Control-Request-Method is no preflight, yet still asks what
    // the URL allows: the same answer rather than the plugin's plain-text 400.
    strictPreflight: false,
  });
  await registerOpenApi(app, options.publicUrl);

  if (options.metrics) {
    instrumentHttp(app, options.metrics.metrics);
    if (options.metrics.token) await app.register(metricsRoute(options.metrics.metrics, options.metrics.token));
  }

  const apiKeys = apiKeyCache(store);
  app.addHook('onClose', async () => apiKeys.close());

  await app.register(healthRoutes(store));
  await app.register(widgetAssetRoutes());
  await app.register(threeDSPageRoutes(store, services), { prefix: '/3d-secure' });
  await app.register(dashboardAssetRoutes());
  await app.register(dashboardApiRoutes(store, services, { lifetime: options.dashboardSessions, publicUrl: options.publicUrl ?? (() => undefined), apiKeys }), {
    prefix: '/dashboard/api',
  });

  const requestLog = options.requestLog === false ? null : startRequestLog(store, (error) => app.log.warn({ err: error }, 'request log entries not written'));
  // What is queued is written when the server stops, before the store closes (main.ts).
  if (requestLog) app.addHook('onClose', () => requestLog.close());
  const limits = { publishablePerMinute: options.publishableRateLimit, secretPerMinute: options.secretRateLimit };
  await app.register(apiRoutes(store, services, limits, apiKeys, requestLog), { prefix: '/v2' });

  app.setNotFoundHandler(() => {
    throw new PayframeError('ROUTE_NOT_FOUND');
  });
  return app;
}
