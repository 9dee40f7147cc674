/**
 * Starts the HTTP service: one process, or a cluster primary with N workers sharing the
 * port. The primary migrates the database before any worker starts, and holds the shared
 * rate-limit counters when there is no Redis.
 */
import cluster from 'node:cluster';
import { Redis } from 'ioredis';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import { pino } from 'pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './api/app.js';
import { loggableError } from './api/errors.js';
import { serveClusterMetrics } from './api/metrics.js';
import { loggerOptions } from './api/server-options.js';
import { openAccountsDatabase } from './accounts/database.js';
import { createRateLimiter, type RateLimitBackend } from './accounts/rate-limit.js';
import { AccountStore } from './accounts/store.js';
import type { Settings } from './config/settings.js';
import { loadRulePlugins } from './identifiers/plugins.js';
import { loadCertificates } from './cards/uidai-certificates.js';
import { closeEngines, ocrEngine } from './services/engines.js';
import { DocumentPool, poolLimits } from './services/pool/document-pool.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly workers: number;
}

/**
 * Until the app listens nothing is in flight: SIGTERM or SIGINT during start-up (loading the
 * models, warming the workers) ends the process at once with 0, as a drain with nothing to
 * drain would, instead of dying by the signal (which a cluster primary counts as a failure).
 * Returns the call that hands the signals over to the draining shutdown.
 */
function exitOnSignalsWhileStarting(): () => void {
  const exit = () => process.exit(0);
  process.once('SIGTERM', exit);
  process.once('SIGINT', exit);
  return () => {
    process.off('SIGTERM', exit);
    process.off('SIGINT', exit);
  };
}

async function serveOne(settings: Settings, options: ServeOptions, clustered: boolean) {
  const started = exitOnSignalsWhileStarting();
  const database = await openAccountsDatabase(settings.databaseUrl, { migrate: !clustered });
  let redis: Redis | null = null;
  let backend: RateLimitBackend = { kind: clustered ? 'cluster' : 'memory' };
  if (settings.redisUrl) {
    redis = new Redis(settings.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    backend = { kind: 'redis', client: redis };
  }
  // Before the app is built: its listing and detection then see the plugins' types.
  await loadRulePlugins(settings.rulePlugins);
  const pool = new DocumentPool(settings, poolLimits(settings), ocrEngine);
  const app = await buildApp({
    settings,
    store: new AccountStore(database.db),
    rateLimiter: createRateLimiter(backend),
    pool,
    ...(redis ? { redisPing: () => redis.ping() } : {}),
  });
  app.addHook('onClose', async () => {
    redis?.disconnect();
    await closeEngines();
    await database.close();
  });
  // A bad PARDA_UIDAI_CERTS file stops start-up here, before anything listens.
  await loadCertificates(settings.uidaiCertPaths);
  started();
  const stopping = stopOnSignals(app, settings.shutdownGraceMs);
  await app.listen({ host: options.host, port: options.port });
  warmUpAfterListening(app, pool, settings.warmUpRounds, stopping);
  return app;
}

/**
 * The models load and the document workers warm up once per process, after the server listens:
 * /health answers within a second or two of start-up, /health/ready says `warm_up: running`
 * (503) until they are done, and documents sent meanwhile wait for the models instead of being
 * refused. A cluster worker tells the primary when it is ready. Models that cannot load stop
 * the process: a server that can never read a page must not look alive.
 */
function warmUpAfterListening(
  app: FastifyInstance,
  pool: DocumentPool,
  rounds: number,
  stopping: () => boolean,
): void {
  const began = performance.now();
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  app.log.info(`loading the OCR models and warming the document workers (${rounds} rounds)`);
  pool.start(rounds).then(
    (report) => {
      app.log.info(
        { models_ms: Math.round(report.modelsMs), warm_up_ms: Math.round(report.warmUpMs) },
        `ready in ${seconds(performance.now() - began)} s: models loaded in ${seconds(report.modelsMs)} s, ${report.rounds} warm-up round(s) in ${seconds(report.warmUpMs)} s`,
      );
      process.send?.(READY_MESSAGE);
    },
    (error: unknown) => {
      if (stopping()) return; // the pool was closed under the warm-up: nothing is wrong
      app.log.fatal({ err: loggableError(error) }, 'start-up failed: the models did not load');
      process.exit(1);
    },
  );
}

/** What a cluster worker sends its primary once its models are loaded and its workers warm. */
const READY_MESSAGE = { parda: 'ready' } as const;

/**
 * SIGTERM or SIGINT drains the process: the listener and idle connections close at once,
 * /health/ready answers `draining`, requests in flight finish and the process exits 0. Those
 * still running after the grace period are cut off, and the process exits 1. A second signal
 * of the same kind ends the process at once (Node's default).
 */
function stopOnSignals(app: FastifyInstance, graceMs: number): () => boolean {
  let inFlight = 0;
  app.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    inFlight += 1;
    response.once('close', () => {
      inFlight -= 1;
    });
  });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info(
      { signal, in_flight: inFlight, grace_seconds: graceMs / 1000 },
      `${signal}: draining; ${inFlight} request(s) in flight`,
    );
    const cutOff = setTimeout(() => {
      app.log.error(
        { requests_cut_off: inFlight, grace_seconds: graceMs / 1000 },
        `shutdown grace period over: ${inFlight} request(s) cut off`,
      );
      app.server.closeAllConnections();
      process.exit(1);
    }, graceMs);
    app.close().then(
      () => {
        clearTimeout(cutOff);
        app.log.info('stopped: every request finished');
        process.exit(0);
      },
      (error: unknown) => {
        clearTimeout(cutOff);
        app.log.error({ err: loggableError(error) }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return () => stopping;
}

export async function serve(settings: Settings, options: ServeOptions): Promise<void> {
  const log = pino(loggerOptions(settings.logLevel) as object);
  if (options.workers <= 1) {
    await serveOne(settings, options, false);
    log.info(`Parda is serving on http://${options.host}:${options.port} (API docs at /docs)`);
    return;
  }
  if (cluster.isPrimary) {
    let stopping = false;
    // "serving" is said once every worker listens, not when they are forked (a replacement
    // that listens later takes the count past it).
    const listening = new Set<number>();
    // Stopping: each worker drains as a single process does; the primary exits when all are
    // gone (1 if any was cut off or failed), or kills the rest a little after their grace period.
    let failed = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, `${signal}: stopping ${options.workers} workers`);
      // A worker that has exited may stay in cluster.workers until its channel closes.
      const running = new Set(Object.keys(cluster.workers ?? {}).map(Number));
      cluster.on('exit', (worker, code, killedBy) => {
        // A worker ended by our SIGTERM before it listened had nothing in flight: not a failure
        // (it may not yet have had its own handler, which exits 0: serveOne).
        const unstarted = killedBy === 'SIGTERM' && !listening.has(worker.id);
        if ((code !== 0 || killedBy) && !unstarted) failed = true;
        running.delete(worker.id);
        if (running.size > 0) return;
        log.info(failed ? 'stopped; a worker cut requests off or failed' : 'stopped');
        process.exit(failed ? 1 : 0);
      });
      if (running.size === 0) process.exit(0);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
      setTimeout(() => {
        log.error('workers still running after the grace period: killing them');
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
        process.exit(1);
      }, settings.shutdownGraceMs + 5000).unref();
    };
    // Before anything is started or forked: a signal that came between a worker's fork and
    // this line found no handler and killed the primary outright (exit by signal, its workers
    // left to fail on a closed channel; seen under load in test/cli/shutdown.test.ts).
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    const database = await openAccountsDatabase(settings.databaseUrl);
    await database.close();
    // Holds the per-key counters for the workers' RateLimiterCluster instances.
    new RateLimiterClusterMaster();
    // A worker's /metrics asks the primary, which gathers every worker's figures.
    if (settings.metrics) serveClusterMetrics();
    cluster.on('listening', (worker) => {
      listening.add(worker.id);
      if (listening.size !== options.workers) return;
      log.info(
        `Parda is serving on http://${options.host}:${options.port} with ${options.workers} workers (API docs at /docs)`,
      );
    });
    const ready = new Set<number>();
    cluster.on('message', (worker, message: unknown) => {
      if ((message as typeof READY_MESSAGE | null)?.parda !== READY_MESSAGE.parda) return;
      ready.add(worker.id);
      if (ready.size === options.workers) log.info(`all ${options.workers} workers are ready`);
    });
    for (let i = 0; i < options.workers; i += 1) cluster.fork();
    cluster.on('exit', (worker, code) => {
      if (stopping) return;
      log.error({ worker: worker.id, code }, 'worker exited; starting a replacement');
      setTimeout(() => {
        if (!stopping) cluster.fork();
      }, 1000);
    });
    return;
  }
  await serveOne(settings, options, true);
}
