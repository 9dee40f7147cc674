/**
 * The service's settings, read once from `PARDA_*` environment variables and validated.
 * Every value has a default that works on one machine; a bad value stops start-up with a
 * message that names the variable.
 */
import os from 'node:os';
import path from 'node:path';

export interface Settings {
  /** `sqlite:///path/file.db` or `postgres://...`. */
  readonly databaseUrl: string;
  /** Redis URL for shared rate limits across replicas; null keeps them in this process. */
  readonly redisUrl: string | null;
  readonly host: string;
  readonly port: number;
  readonly workers: number;
  /**
   * How long a stopping process (SIGTERM, SIGINT) lets requests in flight finish
   * (`PARDA_SHUTDOWN_GRACE_SECONDS`); those still running then are cut off.
   */
  readonly shutdownGraceMs: number;
  readonly maxUploadBytes: number;
  /** Largest `text` accepted by /global/redact/text, in UTF-8 bytes (413 `text_too_large`). */
  readonly maxTextBytes: number;
  /**
   * Decompression-bomb guard: decoded pixels allowed per image page, per image inside a PDF and
   * per PDF page at the resolution it is rendered at (422 `image_too_large`, `page_too_large`).
   */
  readonly maxImagePixels: number;
  /** PDF pre-check: indirect objects accepted in one PDF (422 `too_many_objects`). */
  readonly maxPdfObjects: number;
  /**
   * PDF pre-check: bytes all non-image streams of one PDF may decompress to, together
   * (`PARDA_MAX_PDF_STREAM_MB`; 422 `content_too_large`).
   */
  readonly maxPdfStreamBytes: number;
  /**
   * PDF pre-check: levels of forms, tiling patterns, Type3 fonts and annotation appearances
   * nested in one another; a cycle among them is refused too (422 `nesting_too_deep`).
   */
  readonly maxPdfNesting: number;
  /** Pages (PDF pages, TIFF pages, animation frames) accepted per document. */
  readonly maxPages: number;
  readonly maxBatchFiles: number;
  /** Documents processed at once in this process (each holds its pixels in memory). */
  readonly maxConcurrentDocuments: number;
  /** Files of one bulk request processed in parallel. */
  readonly bulkConcurrency: number;
  /** Documents that may wait for a document worker; more are refused with 503. */
  readonly maxQueuedDocuments: number;
  /** Time budget of one document from the moment a worker takes it, plus `pageTimeoutMs` a page. */
  readonly documentTimeoutMs: number;
  readonly pageTimeoutMs: number;
  /** V8 heap of each document worker, in MB. */
  readonly workerHeapMb: number;
  /** Synthetic documents each document worker processes at start-up before the port opens. */
  readonly warmUpRounds: number;
  /** Resident memory of the process above which the longest-running document is stopped; 0: off. */
  readonly maxRssBytes: number;
  /** OCR lanes: threads that each hold the models and read one page at a time (ocr/lanes.ts). */
  readonly ocrLanes: number;
  /** Resolution at which PDF pages are rendered for OCR. */
  readonly pdfOcrDpi: number;
  /** Masked outputs are read again before they leave (`PARDA_RESIDUAL_CHECK`, on by default). */
  readonly residualCheck: boolean;
  /** Pages of one document the global endpoints OCR at most; later ones are reported skipped. */
  readonly maxOcrPages: number;
  /** Per-request scratch folders live below this directory and are removed after each request. */
  readonly tmpDir: string;
  readonly logLevel: string;
  /** Defaults for keys created without explicit limits. */
  readonly defaultMonthlyQuota: number;
  readonly defaultRequestsPerMinute: number;
  /**
   * Certificate files trusted to sign Secure QRs (`PARDA_UIDAI_CERTS`); undefined: UIDAI's
   * public certificates shipped in assets/uidai/; empty: none (signatures are not verified).
   */
  readonly uidaiCertPaths: readonly string[] | undefined;
  /** ES modules adding global types (`PARDA_RULE_PLUGINS`, separated by commas); none by default. */
  readonly rulePlugins: readonly string[];
  /** GET /metrics in the Prometheus text format (`PARDA_METRICS`, off by default). */
  readonly metrics: boolean;
  /**
   * Bearer token a scrape of /metrics must send (`PARDA_METRICS_TOKEN`); null: loopback
   * clients only.
   */
  readonly metricsToken: string | null;
}

export class SettingsError extends Error {
  override name = 'SettingsError';
}

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new SettingsError(`${name} must be a whole number`);
  const value = Number(raw.trim());
  if (value < min || value > max) {
    throw new SettingsError(`${name} must be between ${min} and ${max}`);
  }
  return value;
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on') return true;
  if (raw === 'off') return false;
  throw new SettingsError(`${name} must be on or off`);
}

function databaseUrl(env: Env, cwd: string): string {
  const raw = env['PARDA_DATABASE_URL']?.trim();
  if (!raw) return `sqlite:///${path.join(cwd, 'var', 'parda.db')}`;
  if (raw.startsWith('sqlite://') || /^postgres(ql)?:\/\//.test(raw)) return raw;
  throw new SettingsError('PARDA_DATABASE_URL must start with sqlite:// or postgres://');
}

/**
 * `PARDA_UIDAI_CERTS`: certificate files separated by commas (or the path delimiter); unset means
 * the shipped UIDAI set, set but empty means no certificate at all.
 */
function certificatePaths(env: Env, cwd: string): readonly string[] | undefined {
  const raw = env['PARDA_UIDAI_CERTS'];
  if (raw === undefined) return undefined;
  return raw
    .split(new RegExp(`[,${path.delimiter}]`))
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => path.resolve(cwd, p));
}

/** `PARDA_METRICS_TOKEN`: 16 or more visible ASCII characters, or unset. */
function metricsToken(env: Env): string | null {
  const raw = env['PARDA_METRICS_TOKEN']?.trim();
  if (!raw) return null;
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) {
    throw new SettingsError(
      'PARDA_METRICS_TOKEN must be 16 to 256 visible ASCII characters (no spaces)',
    );
  }
  return raw;
}

export function loadSettings(env: Env = process.env, cwd: string = process.cwd()): Settings {
  const logLevel = env['PARDA_LOG_LEVEL']?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new SettingsError(`PARDA_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  return {
    databaseUrl: databaseUrl(env, cwd),
    redisUrl: env['PARDA_REDIS_URL']?.trim() || null,
    host: env['PARDA_HOST']?.trim() || '127.0.0.1',
    port: integer(env, 'PARDA_PORT', 8000, 0, 65535),
    workers: integer(env, 'PARDA_WORKERS', 1, 1, 64),
    shutdownGraceMs: integer(env, 'PARDA_SHUTDOWN_GRACE_SECONDS', 30, 0, 3600) * 1000,
    maxUploadBytes: integer(env, 'PARDA_MAX_UPLOAD_MB', 50, 1, 1024) * 1024 * 1024,
    maxTextBytes: integer(env, 'PARDA_MAX_TEXT_MB', 10, 1, 100) * 1024 * 1024,
    maxImagePixels: integer(env, 'PARDA_MAX_IMAGE_MEGAPIXELS', 60, 1, 1000) * 1_000_000,
    maxPdfObjects: integer(env, 'PARDA_MAX_PDF_OBJECTS', 500_000, 1000, 10_000_000),
    maxPdfStreamBytes: integer(env, 'PARDA_MAX_PDF_STREAM_MB', 256, 1, 4096) * 1024 * 1024,
    maxPdfNesting: integer(env, 'PARDA_MAX_PDF_NESTING', 12, 1, 100),
    maxPages: integer(env, 'PARDA_MAX_PAGES', 200, 1, 10_000),
    maxBatchFiles: integer(env, 'PARDA_MAX_BATCH_FILES', 50, 1, 1000),
    maxConcurrentDocuments: integer(env, 'PARDA_MAX_CONCURRENT_DOCUMENTS', 2, 1, 64),
    bulkConcurrency: integer(env, 'PARDA_BULK_CONCURRENCY', 2, 1, 64),
    maxQueuedDocuments: integer(env, 'PARDA_MAX_QUEUED_DOCUMENTS', 16, 0, 10_000),
    documentTimeoutMs: integer(env, 'PARDA_DOCUMENT_TIMEOUT_S', 60, 1, 86_400) * 1000,
    pageTimeoutMs: integer(env, 'PARDA_PAGE_TIMEOUT_S', 15, 0, 3600) * 1000,
    // Below 2 GiB V8 grows a heap in smaller steps and collects more often: a 1 GiB cap made
    // text PDFs about 15% slower than the same work outside a worker.
    workerHeapMb: integer(env, 'PARDA_WORKER_HEAP_MB', 2048, 64, 65_536),
    warmUpRounds: integer(env, 'PARDA_WARM_UP_ROUNDS', 1, 0, 20),
    maxRssBytes: integer(env, 'PARDA_MAX_RSS_MB', 3072, 0, 1_048_576) * 1024 * 1024,
    pdfOcrDpi: integer(env, 'PARDA_PDF_OCR_DPI', 300, 72, 600),
    ocrLanes: integer(env, 'PARDA_OCR_LANES', 1, 1, 16),
    residualCheck: onOff(env, 'PARDA_RESIDUAL_CHECK', true),
    maxOcrPages: integer(env, 'PARDA_MAX_OCR_PAGES', 30, 1, 1000),
    tmpDir: env['PARDA_TMP_DIR']?.trim() || path.join(os.tmpdir(), 'parda'),
    logLevel,
    defaultMonthlyQuota: integer(env, 'PARDA_DEFAULT_QUOTA', 1000, 0, 1_000_000_000),
    defaultRequestsPerMinute: integer(env, 'PARDA_DEFAULT_RPM', 60, 1, 1_000_000),
    uidaiCertPaths: certificatePaths(env, cwd),
    rulePlugins: (env['PARDA_RULE_PLUGINS'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '')
      .map((p) => path.resolve(cwd, p)),
    metrics: onOff(env, 'PARDA_METRICS', false),
    metricsToken: metricsToken(env),
  };
}
