/**
 * Starts the HTTP service: one process, or a cluster primary with N workers sharing the
 * port. The primary migrates the database before any worker starts, and holds the shared
 * rate-limit counters when there is no Redis.
 */
import cluster from 'node:cluster';
import { Redis } from 'ioredis';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import { pino } from 'pino';
import { buildApp } from './api/app.js';
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

async function serveOne(settings: Settings, options: ServeOptions, clustered: boolean) {
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
  // Models, the document workers and the trusted certificates load once per process, before
  // the first request rather than during it; a bad PARDA_UIDAI_CERTS file stops start-up here.
  await ocrEngine();
  await loadCertificates(settings.uidaiCertPaths);
  await pool.start(settings.warmUpRounds);
  const stop = () => {
    void app.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await app.listen({ host: options.host, port: options.port });
  return app;
}

export async function serve(settings: Settings, options: ServeOptions): Promise<void> {
  const log = pino(loggerOptions(settings.logLevel) as object);
  if (options.workers <= 1) {
    await serveOne(settings, options, false);
    log.info(`Parda is serving on http://${options.host}:${options.port} (API docs at /docs)`);
    return;
  }
  if (cluster.isPrimary) {
    const database = await openAccountsDatabase(settings.databaseUrl);
    await database.close();
    // Holds the per-key counters for the workers' RateLimiterCluster instances.
    new RateLimiterClusterMaster();
    let stopping = false;
    for (let i = 0; i < options.workers; i += 1) cluster.fork();
    cluster.on('exit', (worker, code) => {
      if (stopping) return;
      log.error({ worker: worker.id, code }, 'worker exited; starting a replacement');
      setTimeout(() => cluster.fork(), 1000);
    });
    const stop = () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    log.info(
      `Parda is serving on http://${options.host}:${options.port} with ${options.workers} workers (API docs at /docs)`,
    );
    return;
  }
  await serveOne(settings, options, true);
}
