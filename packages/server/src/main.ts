import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { ACQUIRERS, simulatorAcquirer } from './acquirer/simulator.ts';
import { buildApp } from './app.ts';
import { SWEEPER_JOBS, startSweeper } from './background/sweeper.ts';
import { startWebhookWorker } from './background/webhook-worker.ts';
import type { Config } from './config.ts';
import { randomIds } from './ids.ts';
import { loggerOptions } from './logging.ts';
import { startMetricsServer } from './metrics/metrics-server.ts';
import { createMetrics, type Metrics } from './metrics/registry.ts';
import { loadServerSecrets, type ServerSecrets } from './security/secrets.ts';
import type { ServiceDeps, Store } from './services/context.ts';
import { openStore } from './storage/db.ts';
import { prepareDataDirectory } from './storage/file-modes.ts';
import { storageLocation } from './storage/location.ts';

export type RunningServer = { url: string; close(): Promise<void> };

/**
 * A whole server without a listener: the same store, services, app and background work as
 * `payframe serve`, answering through fastify's inject(). The API tests drive it when the behaviour
 * under test needs no process of its own.
 */
export type InProcessServer = { app: FastifyInstance; store: Store; close(): Promise<void> };

type Assembled = {
  app: FastifyInstance;
  store: Store;
  services: ServiceDeps;
  secrets: ServerSecrets;
  metrics: Metrics;
  https: { cert: Buffer; key: Buffer } | undefined;
  /** Set once the listener's URL is known, and when stopping begins. */
  state: { publicUrl: string | undefined; stopping: boolean };
};

/** config → store → services → app: everything but the listener. */
async function assemble(config: Config, logger: Logger): Promise<Assembled> {
  if (!config.databaseUrl || !config.masterKey) {
    const exposure = prepareDataDirectory(config.dataDir);
    if (exposure) {
      logger.warn(exposure, `data directory ${exposure.dataDir} has mode ${exposure.mode}: other users can read it; make it 0700 (chmod 700)`);
    }
  }
  const store = await openStore(storageLocation(config, (error) => logger.warn({ err: error }, 'database connection lost')));
  const secrets = loadServerSecrets({ masterKey: config.masterKey, keyFile: join(config.dataDir, 'master.key') });
  const state: Assembled['state'] = { publicUrl: config.publicUrl, stopping: false };

  const services: ServiceDeps = {
    secrets,
    liveAcquirer: config.liveAcquirer ? (ACQUIRERS[config.liveAcquirer] ?? null) : null,
    testAcquirer: simulatorAcquirer,
    fees: { rateBasisPoints: config.feeRateBasisPoints, fixed: config.feeFixed },
    threeDSUrl: () => `${state.publicUrl}/3d-secure`,
    ids: randomIds,
    clock: { now: () => Date.now() },
  };
  // Recorded in every instance, whether or not anything reads them: an operator can turn the
  // endpoint on later without the counts starting from a restart.
  const metrics = createMetrics(store);
  const https = config.tlsCert && config.tlsKey ? { cert: readFileSync(config.tlsCert), key: readFileSync(config.tlsKey) } : undefined;
  const app = await buildApp({
    store,
    services,
    logger,
    trustProxy: config.trustProxy,
    https,
    publishableRateLimit: config.publishableRateLimit,
    secretRateLimit: config.secretRateLimit,
    stopping: () => state.stopping,
    requestTimeoutMs: config.requestTimeoutMs,
    dashboardSessions: { idleMs: config.dashboardSessionIdleMs, maxMs: config.dashboardSessionMaxMs },
    publicUrl: () => state.publicUrl,
    metrics: { metrics, token: config.metricsToken },
    requestLog: config.requestLog === 'on',
  });
  return { app, store, services, secrets, metrics, https, state };
}

/** The sweeper and the webhook worker, coordinated with other instances through the store. */
function startBackgroundWork(config: Config, { store, services, secrets, metrics }: Assembled, logger: Logger): { stop(): Promise<void> } {
  const runner = `${process.pid}-${services.ids.uuid()}`;
  const sweeper = startSweeper({ store, jobs: SWEEPER_JOBS, periodMs: config.sweepIntervalMs, runner, clock: services.clock, services, logger });
  const webhooks = startWebhookWorker({
    store,
    secretKey: secrets.webhookSecretKey,
    schedule: config.webhookRetrySchedule,
    timeoutMs: config.webhookTimeoutMs,
    runner,
    clock: services.clock,
    logger,
    onAttempt: (outcome) => metrics.webhookAttempts.inc({ outcome }),
  });
  return {
    stop: async () => {
      await sweeper.stop();
      await webhooks.stop();
    },
  };
}

/** The server under `publicUrl` (the 3-D Secure links it hands out), with no listener: see InProcessServer. */
export async function openInProcess(config: Config, publicUrl: string, logger: Logger = pino({ level: 'silent' })): Promise<InProcessServer> {
  const assembled = await assemble(config, logger);
  assembled.state.publicUrl = (config.publicUrl ?? publicUrl).replace(/\/$/, '');
  await assembled.app.ready();
  const background = startBackgroundWork(config, assembled, logger);
  let closing: Promise<void> | undefined;
  const stop = async () => {
    await assembled.app.close();
    await background.stop();
    await assembled.store.close();
  };
  return { app: assembled.app, store: assembled.store, close: () => (closing ??= stop()) };
}

/** config → store → app → listen. The only place that listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const logger = pino(loggerOptions(config.logLevel));
  const assembled = await assemble(config, logger);
  const { app, store, metrics, https, state } = assembled;
  const unused = connectionsWithoutRequest(app, https !== undefined);

  const metricsServer = config.metricsPort === undefined ? undefined : await startMetricsServer(metrics, config.metricsPort);
  if (metricsServer) logger.info({ url: metricsServer.url }, 'payframe metrics ready');
  await app.listen({ port: config.port, host: config.host }).catch(async (error: NodeJS.ErrnoException) => {
    await metricsServer?.close();
    if (error.code !== 'EADDRINUSE') throw error;
    throw new Error(`${config.host}:${config.port} is already in use: stop what listens there, or serve on another port (--port N, or PORT)`, { cause: error });
  });
  const background = startBackgroundWork(config, assembled, logger);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const scheme = https ? 'https' : 'http';
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  state.publicUrl = (state.publicUrl ?? url).replace(/\/$/, '');
  logger.info({ url, publicUrl: state.publicUrl }, 'payframe ready');

  /**
   * Graceful stop: no new connections; requests already received finish and are answered in full,
   * later ones on open connections get a 503 (http/graceful-stop.ts); then the database closes.
   * Connections still busy after the grace period are cut, so a stalled client cannot hold the stop.
   */
  async function stop(): Promise<void> {
    state.stopping = true;
    // The listener closes at once; the callback waits for every open connection to end. Node also
    // closes the idle keep-alive connections here, but not those that have sent no request yet.
    const drained = new Promise<void>((resolve) => app.server.close(() => resolve()));
    for (const socket of unused) socket.destroy();
    logger.info('payframe stopping');
    const grace = setTimeout(() => {
      logger.warn({ graceMs: config.shutdownGraceMs }, 'payframe stopping: requests still in flight after the grace period, cutting their connections');
      app.server.closeAllConnections();
    }, config.shutdownGraceMs);
    try {
      await app.close();
      await drained;
    } finally {
      clearTimeout(grace);
    }
    await metricsServer?.close();
    await background.stop();
    await store.close();
    logger.info('payframe stopped');
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    close: () => (closing ??= stop()),
  };
}

/**
 * The connections that have not sent a request yet. Node counts them as busy (its headers timeout
 * runs from the connection's start), so server.close() would wait on them for the whole grace
 * period; a client such as undici's fetch opens one to replace each connection it aborts. Nothing
 * was received on them, so the stop closes them as it closes idle keep-alive connections.
 */
function connectionsWithoutRequest(app: FastifyInstance, https: boolean): ReadonlySet<Socket> {
  const unused = new Set<Socket>();
  // Over TLS a request's socket is the TLS one, which secureConnection hands over.
  app.server.on(https ? 'secureConnection' : 'connection', (socket: Socket) => {
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (request: IncomingMessage) => unused.delete(request.socket));
  return unused;
}
