/**
 * GET /metrics in the Prometheus text format (`PARDA_METRICS=on`), on prom-client with one
 * registry per app. Labels hold route patterns, methods, statuses, service names and error
 * codes only: never a URL, a key or key id, a file name or anything read from a document.
 * With `parda serve --workers N` a scrape of any worker asks the primary, which gathers every
 * worker's registry (prom-client's AggregatorRegistry), so the figures are the cluster's.
 */
import cluster from 'node:cluster';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  AggregatorRegistry,
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import type { Settings } from '../config/settings.js';
import type { UploadedDocument } from '../services/context.js';
import type {
  DocumentServices,
  ServiceName,
  ServiceOptions,
  ServiceResult,
} from '../services/document-services.js';
import type { PoolStatus } from '../services/pool/document-pool.js';
import { ApiError, toApiError } from './errors.js';
import { errorCodeOf } from './usage-log.js';
import './request-context.js';

/** Seconds: from 10 ms (a refusal, a listing) to 60 s (a large scanned PDF). */
const LATENCY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly latency: Histogram<'route' | 'method'>;
  readonly errors: Counter<'route' | 'code'>;
  readonly documents: Counter<'service' | 'outcome'>;
  readonly pages: Counter<'service' | 'outcome'>;
  readonly ocrPages: Counter<'service'>;
  readonly documentSeconds: Histogram<'service'>;
  readonly queueWait: Histogram;

  constructor(pool: PoolView) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'parda_http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.latency = new Histogram({
      name: 'parda_http_request_duration_seconds',
      help: 'Time from request to response sent, by route pattern and method.',
      labelNames: ['route', 'method'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.errors = new Counter({
      name: 'parda_http_errors_total',
      help: 'Answers with an API error code (rate_limited, quota_exceeded, service_unavailable, ...), by route pattern and code.',
      labelNames: ['route', 'code'],
      registers,
    });
    this.documents = new Counter({
      name: 'parda_documents_total',
      help: 'Documents processed by the file services, by service and outcome (found, nothing_found, completed or the error code).',
      labelNames: ['service', 'outcome'],
      registers,
    });
    this.pages = new Counter({
      name: 'parda_pages_total',
      help: 'Pages of the documents processed, by service and outcome (services that report pages only).',
      labelNames: ['service', 'outcome'],
      registers,
    });
    this.ocrPages = new Counter({
      name: 'parda_ocr_pages_total',
      help: 'Pages read by OCR, by service (the global endpoints, which report them).',
      labelNames: ['service'],
      registers,
    });
    this.documentSeconds = new Histogram({
      name: 'parda_document_duration_seconds',
      help: 'Time of one document in the file services, queue wait included, by service.',
      labelNames: ['service'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.queueWait = new Histogram({
      name: 'parda_pool_wait_seconds',
      help: 'Time a document waited for a document worker (each attempt).',
      buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    pool.observeWait?.((ms) => {
      this.queueWait.observe(ms / 1000);
    });
    const gauge = (name: string, help: string, read: (status: PoolStatus) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(pool.status()));
        },
      });
    gauge('parda_pool_threads', 'Document workers configured.', (s) => s.threads);
    gauge('parda_pool_threads_alive', 'Document workers alive now.', (s) => s.alive);
    gauge('parda_pool_busy', 'Document workers processing a document now.', (s) => s.busy);
    gauge('parda_pool_queued', 'Documents waiting for a document worker.', (s) => s.queued);
    gauge('parda_pool_max_queue', 'Documents that may wait before 503.', (s) => s.maxQueue);
  }
}

/** What metrics read of the document pool: its status, and the wait of each document. */
export interface PoolView {
  status(): PoolStatus;
  observeWait?(observer: (ms: number) => void): void;
}

/** What one document came to, for the counters. */
interface Facts {
  readonly outcome: 'found' | 'nothing_found' | 'completed';
  readonly pages?: number;
  readonly ocrPages?: number;
}

const found = (count: number) => (count > 0 ? 'found' : 'nothing_found');

/**
 * The file services with each document counted: its outcome, pages, OCR pages and time. A
 * failure counts under its API error code. Unchanged when metrics are off.
 */
export function instrumentServices(
  services: DocumentServices,
  metrics: Metrics | null,
  maxUploadBytes: number,
): DocumentServices {
  if (!metrics) return services;
  const wrap = <K extends ServiceName>(name: K, facts: (result: ServiceResult<K>) => Facts) => {
    const call = services[name] as (
      upload: UploadedDocument,
      options: ServiceOptions<K>,
    ) => Promise<ServiceResult<K>>;
    return (async (upload: UploadedDocument, options: ServiceOptions<K>) => {
      const stopTimer = metrics.documentSeconds.startTimer({ service: name });
      try {
        const result = await call(upload, options);
        const { outcome, pages, ocrPages } = facts(result);
        metrics.documents.inc({ service: name, outcome });
        if (pages !== undefined) metrics.pages.inc({ service: name, outcome }, pages);
        if (ocrPages !== undefined) metrics.ocrPages.inc({ service: name }, ocrPages);
        return result;
      } catch (error) {
        const code = toApiError(error, maxUploadBytes)?.code ?? 'processing_failed';
        metrics.documents.inc({ service: name, outcome: code });
        throw error;
      } finally {
        stopTimer();
      }
    }) as DocumentServices[K];
  };
  return {
    maskAadhaar: wrap('maskAadhaar', (r) => ({ outcome: found(r.maskedCount), pages: r.pages })),
    maskPan: wrap('maskPan', (r) => ({ outcome: found(r.maskedCount), pages: r.pages })),
    extractAadhaar: wrap('extractAadhaar', () => ({ outcome: 'completed' })),
    extractPan: wrap('extractPan', () => ({ outcome: 'completed' })),
    verify: wrap('verify', () => ({ outcome: 'completed' })),
    redactPii: wrap('redactPii', (r) => ({ outcome: found(r.redactedCount), pages: r.pages })),
    detectGlobal: wrap('detectGlobal', (r) => ({
      outcome: found(r.entities.length),
      pages: r.pages,
      ocrPages: r.ocr?.pages.length ?? 0,
    })),
    redactGlobal: wrap('redactGlobal', (r) => ({
      outcome: found(r.entitiesFound),
      pages: r.report.pages,
      ocrPages: r.report.ocr?.pages.length ?? 0,
    })),
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function isLoopback(request: FastifyRequest): boolean {
  // The socket's own peer, not a forwarded address: and a request a local reverse proxy
  // forwards (it says so in a header) is not a local client.
  const peer = request.raw.socket.remoteAddress ?? '';
  const forwarded = request.headers['x-forwarded-for'] ?? request.headers['forwarded'];
  return forwarded === undefined && ['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(peer);
}

/** Bearer token when one is set (compared in constant time), else loopback clients only. */
function mayScrape(request: FastifyRequest, token: string | null): boolean {
  if (token === null) return isLoopback(request);
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

const SCRAPE_REQUEST = 'parda:metrics:scrape';
const SCRAPE_REPLY = 'parda:metrics:scraped';
const SCRAPE_TIMEOUT_MS = 5000;

interface ScrapeMessage {
  readonly type?: unknown;
  readonly id?: unknown;
  readonly text?: unknown;
  readonly failed?: unknown;
}

/** In a cluster worker: the cluster's figures, gathered by the primary. */
function clusterScrape(): Promise<string> {
  return new Promise((resolve, reject) => {
    const id = randomUUID();
    const timer = setTimeout(() => {
      finish(new Error('the primary did not answer'));
    }, SCRAPE_TIMEOUT_MS);
    const listener = (message: ScrapeMessage) => {
      if (message.type !== SCRAPE_REPLY || message.id !== id) return;
      if (typeof message.text === 'string' && message.failed !== true) finish(null, message.text);
      else finish(new Error('the primary could not gather the metrics'));
    };
    const finish = (error: Error | null, text = '') => {
      clearTimeout(timer);
      process.off('message', listener);
      if (error) reject(error);
      else resolve(text);
    };
    process.on('message', listener);
    process.send?.({ type: SCRAPE_REQUEST, id });
  });
}

/**
 * In the cluster primary (`parda serve --workers N` with metrics on): answers a worker's
 * scrape with every worker's figures, aggregated.
 */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: ScrapeMessage) => {
    if (message.type !== SCRAPE_REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: SCRAPE_REPLY, id: message.id, text }),
      () => worker.send({ type: SCRAPE_REPLY, id: message.id, failed: true }),
    );
  });
}

/**
 * Counts every request (but the scrape itself) and serves GET /metrics; returns null and adds
 * nothing when metrics are off, so that /metrics is then an unknown route (404).
 */
export function installMetrics(
  app: FastifyInstance,
  settings: Settings,
  pool: PoolView,
): Metrics | null {
  if (!settings.metrics) return null;
  const metrics = new Metrics(pool);
  const clustered = cluster.isWorker;
  // A worker answers the primary's gathering requests with this registry.
  if (clustered) {
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([metrics.registry]);
  }

  const errorCodes = new WeakMap<FastifyRequest, string>();
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode >= 400 && !request.routeOptions.config.scrape) {
      const code = errorCodeOf(payload);
      if (code) errorCodes.set(request, code);
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    if (request.routeOptions.config.scrape) return;
    const route = request.routeOptions.url ?? 'unmatched';
    const method = METHODS.has(request.method) ? request.method : 'OTHER';
    metrics.requests.inc({ route, method, status: String(reply.statusCode) });
    metrics.latency.observe({ route, method }, reply.elapsedTime / 1000);
    const code = errorCodes.get(request);
    if (code) metrics.errors.inc({ route, code });
  });

  app.get(
    '/metrics',
    { config: { public: true, scrape: true }, schema: { hide: true } },
    async (request, reply) => {
      // The same answer as an unknown route: nothing tells a stranger metrics are served.
      if (!mayScrape(request, settings.metricsToken)) {
        throw new ApiError('not_found', 'No such endpoint; see /docs for the API.');
      }
      let text: string;
      try {
        text = clustered ? await clusterScrape() : await metrics.registry.metrics();
      } catch {
        throw new ApiError('service_unavailable', 'The metrics could not be gathered; retry.');
      }
      return reply
        .header('Content-Type', metrics.registry.contentType)
        .header('Cache-Control', 'no-store')
        .send(text);
    },
  );
  return metrics;
}
