import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { ACQUIRERS, simulatorAcquirer } from './acquirer/simulator.ts';
import { buildApp } from './app.ts';
import { SWEEPER_JOBS, startSweeper } from './background/sweeper.ts';
import { startWebhookWorker } from './background/webhook-worker.ts';
import type { Config } from './config.ts';
import { randomIds } from './ids.ts';
import { loggerOptions } from './logging.ts';
import { startMetricsServer } from './metrics/metrics-server.ts';
import { createMetrics } from './metrics/registry.ts';
import { loadServerSecrets } from './security/secrets.ts';
import type { ServiceDeps } from './services/context.ts';
import { openStore } from './storage/db.ts';
import { prepareDataDirectory } from './storage/file-modes.ts';
import { storageLocation } from './storage/location.ts';

export type RunningServer = { url: string; close(): Promise<void> };

/** config → store → app → listen. The only place that listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const logger = pino(loggerOptions(config.logLevel));
  if (!config.databaseUrl || !config.masterKey) {
    const exposure = prepareDataDirectory(config.dataDir);
    if (exposure) {
      logger.warn(exposure, `data directory ${exposure.dataDir} has mode ${exposure.mode}: other users can read it; make it 0700 (chmod 700)`);
    }
  }
  const store = await openStore(storageLocation(config, (error) => logger.warn({ err: error }, 'database connection lost')));
  const secrets = loadServerSecrets({ masterKey: config.masterKey, keyFile: join(config.dataDir, 'master.key') });
  let publicUrl = config.publicUrl;

  const services: ServiceDeps = {
    secrets,
    liveAcquirer: config.liveAcquirer ? (ACQUIRERS[config.liveAcquirer] ?? null) : null,
    testAcquirer: simulatorAcquirer,
    fees: { rateBasisPoints: config.feeRateBasisPoints, fixed: config.feeFixed },
    threeDSUrl: () => `${publicUrl}/3d-secure`,
    ids: randomIds,
    clock: { now: () => Date.now() },
  };
  let stopping = false;
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
    stopping: () => stopping,
    requestTimeoutMs: config.requestTimeoutMs,
    dashboardSessions: { idleMs: config.dashboardSessionIdleMs, maxMs: config.dashboardSessionMaxMs },
    publicUrl: () => publicUrl,
    metrics: { metrics, token: config.metricsToken },
    requestLog: config.requestLog === 'on',
  });

  const metricsServer = config.metricsPort === undefined ? undefined : await startMetricsServer(metrics, config.metricsPort);
  if (metricsServer) logger.info({ url: metricsServer.url }, 'payframe metrics ready');
  await app.listen({ port: config.port, host: config.host }).catch(async (error: NodeJS.ErrnoException) => {
    await metricsServer?.close();
    if (error.code !== 'EADDRINUSE') throw error;
    throw new Error(`${config.host}:${config.port} is already in use: stop what listens there, or serve on another port (--port N, or PORT)`, { cause: error });
  });
  const runner = `${process.pid}-${services.ids.uuid()}`;
  const sweeper = startSweeper({ store, jobs: SWEEPER_JOBS, periodMs: config.sweepIntervalMs, runner, clock: services.clock, services, logger });
  const webhooks = startWebhookWorker({
    store,
    secretKey: secrets.webhookSecretKey,
    schedule: config.webhookRetrySchedule,
    runner,
    clock: services.clock,
    logger,
    onAttempt: (outcome) => metrics.webhookAttempts.inc({ outcome }),
  });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const scheme = https ? 'https' : 'http';
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  publicUrl = (publicUrl ?? url).replace(/\/$/, '');
  logger.info({ url, publicUrl }, 'payframe ready');

  /**
   * Graceful stop: no new connections; requests already received finish and are answered in full,
   * later ones on open connections get a 503 (http/graceful-stop.ts); then the database closes.
   * Connections still busy after the grace period are cut, so a stalled client cannot hold the stop.
   */
  async function stop(): Promise<void> {
    stopping = true;
    // The listener closes at once; the callback waits for every open connection to end. Node also
    // closes the idle keep-alive connections here.
    const drained = new Promise<void>((resolve) => app.server.close(() => resolve()));
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
    await sweeper.stop();
    await webhooks.stop();
    await store.close();
    logger.info('payframe stopped');
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    close: () => (closing ??= stop()),
  };
}
