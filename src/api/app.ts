/**
 * Builds the Fastify application: plugins, hooks and routes, with every dependency passed in
 * (no globals), so that tests, `parda serve` and each worker build the same thing.
 */
import multipart from '@fastify/multipart';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyServerOptions,
} from 'fastify';
import { Metering } from '../accounts/metering.js';
import type { RequestRateLimiter } from '../accounts/rate-limit.js';
import type { AccountStore } from '../accounts/store.js';
import type { Settings } from '../config/settings.js';
import { installAuthentication } from './authentication.js';
import { installDocumentation } from './documentation.js';
import { ApiError, errorBodySchema, installErrorHandling } from './errors.js';
import { RequestMetering } from './metering.js';
import { installMetrics, instrumentServices } from './metrics.js';
import { loggerOptions, serverOptions } from './server-options.js';
import type { RouteKit } from './route-kit.js';
import { accountRoutes } from './routes/account.js';
import { healthRoutes } from './routes/health.js';
import { listingRoutes } from './routes/listings.js';
import { installUsageLog } from './usage-log.js';
import { bulkRoutes } from './routes/bulk.js';
import { extractRoutes } from './routes/extract.js';
import { verifyRoutes } from './routes/verify.js';
import { redactPiiRoutes } from './routes/redact-pii.js';
import { globalTextRoutes } from './routes/global-text.js';
import { globalDetectRoutes } from './routes/global-detect.js';
import { globalRedactRoutes } from './routes/global-redact.js';
import { maskRoutes } from './routes/mask.js';
import { webRoutes } from './routes/web.js';
import { ocrEngine } from '../services/engines.js';
import { DocumentPool, poolLimits, pooledServices } from '../services/pool/document-pool.js';

export interface AppDeps {
  readonly settings: Settings;
  readonly store: AccountStore;
  readonly rateLimiter: RequestRateLimiter;
  readonly clock?: () => Date;
  /**
   * The pool of document workers the file services run in; built from the settings when
   * absent. The app closes it when it closes.
   */
  readonly pool?: DocumentPool;
  /** Pings Redis, for /health/ready; absent when no Redis is configured. */
  readonly redisPing?: () => Promise<unknown>;
  /** Fastify logger options; false silences logging (tests). */
  readonly logger?: FastifyServerOptions['logger'];
  /** Further route plugins, registered with the same kit as the built-in ones. */
  readonly routes?: readonly FastifyPluginAsync<RouteKit>[];
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { settings, store } = deps;
  const clock = deps.clock ?? (() => new Date());
  const app = Fastify(serverOptions(deps.logger ?? loggerOptions(settings.logLevel)));

  app.addSchema(errorBodySchema);
  installErrorHandling(app, settings.maxUploadBytes);

  // Stopping (app.close(): the listener is closed, idle connections too): requests in flight
  // finish, a new request on a connection still open is refused, and /health/ready says so.
  let draining = false;
  app.addHook('preClose', async () => {
    draining = true;
    return Promise.resolve();
  });
  app.addHook('onRequest', async (request) => {
    if (draining && !request.url.startsWith('/health')) {
      throw new ApiError('service_unavailable', 'The service is shutting down.', {
        headers: { 'Retry-After': '1' },
      });
    }
    return Promise.resolve();
  });

  await installDocumentation(app);

  await app.register(multipart, {
    limits: { fileSize: settings.maxUploadBytes },
    throwFileSizeLimit: true,
  });

  const metering = new Metering(store, clock);
  installAuthentication(app, { store, metering, rateLimiter: deps.rateLimiter, clock });
  installUsageLog(app, store, clock);

  app.addHook('onSend', async (request, reply, payload) => {
    void reply.header('X-Request-Id', request.id);
    // Responses carry documents or facts about them: never let a cache keep one.
    if (!request.routeOptions.config.public) void reply.header('Cache-Control', 'no-store');
    return payload;
  });

  const pool = deps.pool ?? new DocumentPool(settings, poolLimits(settings), ocrEngine);
  app.addHook('onClose', () => pool.close());
  const metrics = installMetrics(app, settings, pool);
  const kit: RouteKit = {
    settings,
    metering: new RequestMetering(metering),
    documents: instrumentServices(pooledServices(pool), metrics, settings.maxUploadBytes),
  };
  await app.register(healthRoutes, {
    store,
    pool: () => pool.status(),
    ...(deps.redisPing ? { redisPing: deps.redisPing } : {}),
    draining: () => draining,
  });
  await app.register(listingRoutes);
  await app.register(accountRoutes, { clock, store });
  await app.register(maskRoutes, kit);
  await app.register(bulkRoutes, kit);
  await app.register(extractRoutes, kit);
  await app.register(verifyRoutes, kit);
  await app.register(redactPiiRoutes, kit);
  await app.register(globalTextRoutes, kit);
  await app.register(globalDetectRoutes, kit);
  await app.register(globalRedactRoutes, kit);
  await app.register(webRoutes);
  for (const routes of deps.routes ?? []) await app.register(routes, kit);
  return app;
}
