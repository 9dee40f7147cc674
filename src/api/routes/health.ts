/**
 * GET /health: liveness. `{"status":"ok"}` whenever requests can be served, nothing else.
 * GET /health/ready: readiness for load balancers: the accounts database, Redis when
 * configured, the models loaded and the workers warmed, and room in the document pool; 503 with
 * the same body when any is not ready, and with `"status": "draining"` once the process is
 * stopping. /health answers from the moment the server listens, before the models load:
 * documents sent then wait for them rather than being refused.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AccountStore } from '../../accounts/store.js';
import type { PoolStatus } from '../../services/pool/document-pool.js';
import { ApiError } from '../errors.js';
import { propertiesOfType } from '../route-schemas.js';

export interface HealthDeps {
  readonly store: AccountStore;
  /** The document pool's state. */
  readonly pool: () => PoolStatus;
  /** Pings Redis; absent when no Redis is configured. */
  readonly redisPing?: () => Promise<unknown>;
  /** True once the process is stopping: it finishes its requests but takes no new ones. */
  readonly draining?: () => boolean;
}

/** A check that does not answer within this long counts as failing. */
const CHECK_TIMEOUT_MS = 1000;

async function answers(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error('timed out'));
        }, CHECK_TIMEOUT_MS);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

const poolSchema = {
  type: 'object',
  required: ['threads', 'busy', 'queued', 'max_queue', 'saturated'],
  properties: {
    ...propertiesOfType('integer', ['threads', 'busy', 'queued', 'max_queue']),
    saturated: { type: 'boolean' },
  },
};

const readySchema = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ready', 'not_ready', 'draining'] },
    checks: {
      type: 'object',
      required: ['database', 'redis', 'warm_up', 'pool'],
      properties: {
        database: { type: 'string', enum: ['ok', 'failing'] },
        redis: { type: 'string', enum: ['ok', 'failing', 'not_configured'] },
        warm_up: { type: 'string', enum: ['running', 'done', 'off'] },
        pool: poolSchema,
      },
    },
  },
};

export const healthRoutes: FastifyPluginAsync<HealthDeps> = async (app, deps) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['service'],
        summary: 'Liveness',
        response: {
          200: {
            type: 'object',
            required: ['status'],
            properties: { status: { type: 'string', enum: ['ok'] } },
            additionalProperties: false,
          },
          503: { $ref: 'ErrorBody#' },
        },
      },
    },
    async () => {
      // Without the accounts database no key can be checked, so nothing can be served.
      if (!(await answers(() => deps.store.ping()))) {
        throw new ApiError('service_unavailable', 'The service cannot serve requests right now.');
      }
      return { status: 'ok' as const };
    },
  );

  app.get(
    '/health/ready',
    {
      config: { public: true },
      schema: {
        tags: ['service'],
        summary:
          'Readiness: database, Redis (when configured), models loaded and room in the document pool',
        description:
          '200 when a new document would be taken at once or queued by a warm worker; 503 with the same body while the service loads its models and warms its workers at start-up (`warm_up: running`; `off` when it warms on the first document instead), when the database or Redis does not answer within a second, or every document worker is busy and the queue is full, and with status `draining` while the process is stopping.',
        response: { 200: readySchema, 503: readySchema },
      },
    },
    async (_request, reply) => {
      const [database, redis] = await Promise.all([
        answers(() => deps.store.ping()),
        deps.redisPing ? answers(deps.redisPing) : Promise.resolve(null),
      ]);
      const pool = deps.pool();
      const draining = deps.draining?.() ?? false;
      const ready =
        database && redis !== false && pool.warmUp !== 'running' && !pool.saturated && !draining;
      return reply.code(ready ? 200 : 503).send({
        status: draining ? 'draining' : ready ? 'ready' : 'not_ready',
        checks: {
          database: database ? 'ok' : 'failing',
          redis: redis === null ? 'not_configured' : redis ? 'ok' : 'failing',
          warm_up: pool.warmUp,
          pool: {
            threads: pool.threads,
            busy: pool.busy,
            queued: pool.queued,
            max_queue: pool.maxQueue,
            saturated: pool.saturated,
          },
        },
      });
    },
  );
  return Promise.resolve();
};
