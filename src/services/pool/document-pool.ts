/**
 * The pool of document workers (piscina threads) behind the API. Each document gets a
 * wall-clock budget that starts when a worker takes it and grows with its page count; a
 * document over budget or over the memory cap has its worker terminated and replaced, and
 * fails with `DocumentTooComplexError`. A full queue refuses at once with `ServiceBusyError`.
 * The HTTP thread only moves bytes in and results out, so it stays responsive whatever a
 * document does.
 */
import '../../ocr/telemetry-off.js';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Settings } from '../../config/settings.js';
import type { PaddleOcr } from '../../ocr/paddle.js';
import type { UploadedDocument } from '../context.js';
import type {
  DocumentServices,
  ServiceName,
  ServiceOptions,
  ServiceResult,
} from '../document-services.js';
import { DocumentTooComplexError, ServiceBusyError } from '../errors.js';
import {
  reviveError,
  reviveResult,
  toWireOptions,
  type Outcome,
  type Progress,
  type Task,
} from './wire.js';

export interface PoolLimits {
  /** Worker threads: documents processed at once. */
  readonly threads: number;
  /** Documents that may wait for a worker; beyond them requests are refused (503). */
  readonly maxQueue: number;
  /** Budget of a document, from the moment a worker takes it. */
  readonly budgetMs: number;
  /** Added to the budget for each page. */
  readonly budgetPerPageMs: number;
  /** V8 heap of each worker; a worker over it is ended by V8 and replaced. */
  readonly workerHeapMb: number;
  /** Resident memory of the whole process above which the longest-running document is stopped (0: off). */
  readonly maxRssBytes: number;
}

export function poolLimits(settings: Settings): PoolLimits {
  return {
    threads: settings.maxConcurrentDocuments,
    maxQueue: settings.maxQueuedDocuments,
    budgetMs: settings.documentTimeoutMs,
    budgetPerPageMs: settings.pageTimeoutMs,
    workerHeapMb: settings.workerHeapMb,
    maxRssBytes: settings.maxRssBytes,
  };
}

export interface PoolStatus {
  readonly threads: number;
  /** Worker threads alive now (fewer than `threads` while a retired one is being replaced). */
  readonly alive: number;
  readonly busy: number;
  readonly queued: number;
  readonly maxQueue: number;
  /** True when a new document would be refused. */
  readonly saturated: boolean;
  /** `start()`: loading the models and warming the workers, or done; `off` when never started. */
  readonly warmUp: WarmUpState;
}

export type WarmUpState = 'off' | 'running' | 'done';

/** What `start()` did, for the start-up log. */
export interface WarmUpReport {
  readonly modelsMs: number;
  readonly warmUpMs: number;
  /** Warm-up rounds run: fewer than asked when documents arrived and took over the warming. */
  readonly rounds: number;
}

/** Why a running document was stopped. */
type StopReason = 'budget' | 'memory';

interface Running {
  readonly startedAt: number;
  readonly stop: (reason: StopReason) => void;
}

const RSS_CHECK_MS = 200;
/** Attempts of one document when workers die under it for reasons not its own. */
const ATTEMPTS = 2;

export class DocumentPool {
  /** Started on first use (or by `start()`), so that an app that serves no document starts none. */
  private threadPool: Piscina<Task, Outcome> | undefined;
  private readonly running = new Set<Running>();
  /** Documents taken and not yet answered: running, waiting for a worker, or being retried. */
  private inFlight = 0;
  private rssTimer: NodeJS.Timeout | undefined;
  /** Recent seconds per document, for Retry-After. */
  private averageSeconds = 2;
  /** Told how long each document waited for a worker, in ms (the API's metrics). */
  private readonly waitObservers: ((ms: number) => void)[] = [];
  private warmUp: WarmUpState = 'off';
  private closed = false;

  constructor(
    private readonly settings: Settings,
    private readonly limits: PoolLimits,
    private readonly ocr: () => Promise<Pick<PaddleOcr, 'connect'>>,
    /** The worker script; tests give one that misbehaves on purpose. */
    private readonly workerFile: URL = new URL('./document-worker.js', import.meta.url),
  ) {}

  /**
   * Loads the models and starts the workers now rather than at the first document, and runs up
   * to `rounds` synthetic documents through each (warm-up.ts), so that the first clients are not
   * served cold. Documents that arrive meanwhile wait for the models like any other; once one
   * is in flight no further round starts (real documents warm the workers as well).
   */
  async start(rounds = 3): Promise<WarmUpReport> {
    this.warmUp = 'running';
    try {
      const began = performance.now();
      await this.ocr();
      const loaded = performance.now();
      this.startThreads();
      let done = 0;
      while (done < rounds && this.inFlight === 0) {
        // One task per worker at a time: piscina gives each to an idle worker.
        await Promise.all(
          Array.from({ length: this.limits.threads }, () =>
            this.attempt('warmUp', { bytes: Buffer.alloc(0), filename: '' }, {}, true),
          ),
        );
        done += 1;
      }
      this.warmUp = 'done';
      return { modelsMs: loaded - began, warmUpMs: performance.now() - loaded, rounds: done };
    } catch (error) {
      this.warmUp = 'off';
      throw error;
    }
  }

  private get piscina(): Piscina<Task, Outcome> {
    return this.startThreads();
  }

  /** The worker threads, started on first use; never again once the pool is closed. */
  private startThreads(): Piscina<Task, Outcome> {
    if (this.closed) throw new Error('the document pool is closed');
    this.threadPool ??= this.createThreads();
    return this.threadPool;
  }

  private createThreads(): Piscina<Task, Outcome> {
    const { limits, settings } = this;
    const threads = new Piscina<Task, Outcome>({
      filename: this.workerFile.href,
      minThreads: limits.threads,
      maxThreads: limits.threads,
      // Idle workers stay: each holds its WebAssembly modules, compiled once.
      idleTimeout: Number.MAX_SAFE_INTEGER,
      concurrentTasksPerWorker: 1,
      resourceLimits: { maxOldGenerationSizeMb: limits.workerHeapMb },
      workerData: { settings },
    });
    // A worker that dies outside a task (a trap in a finaliser) is replaced by piscina; the
    // error must not become the process's uncaught exception.
    threads.on('error', () => undefined);
    return threads;
  }

  /** Calls `observer` with the milliseconds each document waited before a worker took it. */
  observeWait(observer: (ms: number) => void): void {
    this.waitObservers.push(observer);
  }

  status(): PoolStatus {
    const busy = this.running.size;
    const queued = Math.max(0, this.inFlight - busy);
    return {
      threads: this.limits.threads,
      alive: this.threadPool?.threads.length ?? 0,
      busy,
      queued,
      maxQueue: this.limits.maxQueue,
      saturated: this.inFlight >= this.limits.threads + this.limits.maxQueue,
      warmUp: this.warmUp,
    };
  }

  async run<K extends ServiceName>(
    service: K,
    upload: UploadedDocument,
    options: ServiceOptions<K>,
  ): Promise<ServiceResult<K>> {
    // The queue bound is kept here rather than by piscina, so that a retry keeps its place.
    if (this.status().saturated) throw this.busy();
    this.inFlight += 1;
    try {
      const wire = toWireOptions(options);
      for (let attempt = 1; ; attempt += 1) {
        const outcome = await this.attempt(service, upload, wire, attempt >= ATTEMPTS);
        if (outcome === 'retry') continue;
        return reviveResult(outcome) as ServiceResult<K>;
      }
    } finally {
      this.inFlight -= 1;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.rssTimer);
    const threads = this.threadPool;
    this.threadPool = undefined;
    await threads?.destroy();
  }

  private busy(): ServiceBusyError {
    const waitSeconds = Math.ceil(
      (this.averageSeconds * (this.inFlight - this.limits.threads + 1)) / this.limits.threads,
    );
    return new ServiceBusyError(
      `Every document worker is busy and ${this.limits.maxQueue} documents are waiting (PARDA_MAX_QUEUED_DOCUMENTS); retry later.`,
      Math.min(60, Math.max(1, waitSeconds)),
    );
  }

  /** One run of the task; 'retry' when its worker died under it for a reason not its own. */
  private async attempt(
    service: Task['service'],
    upload: UploadedDocument,
    options: Task['options'],
    last: boolean,
  ): Promise<unknown> {
    const queuedAt = Date.now();
    const engine = await this.ocr();
    const ocrPort = engine.connect();
    const channel = new MessageChannel();
    const controller = new AbortController();
    let stopped: StopReason | undefined;
    let timer: NodeJS.Timeout | undefined;
    let running: Running | undefined;
    const stop = (reason: StopReason) => {
      stopped ??= reason;
      controller.abort();
    };
    const arm = (pages: number) => {
      if (!running) return;
      clearTimeout(timer);
      const budget = this.limits.budgetMs + pages * this.limits.budgetPerPageMs;
      const left = running.startedAt + budget - Date.now();
      timer = setTimeout(
        () => {
          stop('budget');
        },
        Math.max(0, left),
      );
    };
    channel.port1.on('message', (message: Progress) => {
      if (message.type === 'started') {
        running = { startedAt: Date.now(), stop };
        if (service !== 'warmUp')
          for (const observe of this.waitObservers) observe(running.startedAt - queuedAt);
        this.running.add(running);
        this.watchMemory();
        arm(0);
      } else {
        arm(message.pages);
      }
    });
    try {
      const outcome = await this.piscina.run(
        { service, upload, options, ocrPort, progress: channel.port2 },
        { transferList: [ocrPort, channel.port2], signal: controller.signal },
      );
      if (outcome.ok) {
        if (running) this.learn(Date.now() - running.startedAt);
        return outcome.value;
      }
      if ('poisoned' in outcome) {
        await this.retire(outcome.threadId);
        return 'retry';
      }
      if (outcome.retire) await this.retire(outcome.threadId);
      throw reviveError(outcome.error);
    } catch (error) {
      if (stopped === 'budget') {
        const seconds = (ms: number) => String(Math.round(ms / 100) / 10);
        throw new DocumentTooComplexError(
          `The document took longer than its time budget (${seconds(this.limits.budgetMs)} s plus ${seconds(this.limits.budgetPerPageMs)} s a page: PARDA_DOCUMENT_TIMEOUT_S, PARDA_PAGE_TIMEOUT_S) and was stopped.`,
        );
      }
      if (stopped === 'memory' || isOutOfMemory(error)) {
        throw new DocumentTooComplexError(
          'The document needed more memory than a document may use (PARDA_WORKER_HEAP_MB, PARDA_MAX_RSS_MB) and was stopped.',
        );
      }
      if (isWorkerDeath(error)) {
        if (!last) return 'retry';
        throw new DocumentTooComplexError(
          'The document could not be processed: the worker reading it failed twice.',
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
      if (running) this.running.delete(running);
      channel.port1.close();
      ocrPort.close();
    }
  }

  /** Ends a worker whose WebAssembly state may be corrupt; piscina starts a fresh one. */
  private async retire(threadId: number): Promise<void> {
    const worker = this.piscina.threads.find((w) => w.threadId === threadId);
    if (worker) await worker.terminate();
  }

  private learn(ms: number): void {
    this.averageSeconds = this.averageSeconds * 0.8 + (ms / 1000) * 0.2;
  }

  /**
   * While documents run, checks the process's resident memory; above the cap, the document
   * that has run longest (the likeliest cause, and the one with most to lose least often) is stopped.
   */
  private watchMemory(): void {
    if (this.limits.maxRssBytes === 0 || this.rssTimer) return;
    this.rssTimer = setInterval(() => {
      if (this.running.size === 0) {
        clearInterval(this.rssTimer);
        this.rssTimer = undefined;
        return;
      }
      if (process.memoryUsage.rss() <= this.limits.maxRssBytes) return;
      let oldest: Running | undefined;
      for (const run of this.running) if (!oldest || run.startedAt < oldest.startedAt) oldest = run;
      oldest?.stop('memory');
    }, RSS_CHECK_MS);
    this.rssTimer.unref();
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : '');
const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

function isOutOfMemory(error: unknown): boolean {
  return codeOf(error) === 'ERR_WORKER_OUT_OF_MEMORY';
}

/** The worker exited or threw outside the task's own code (piscina rejects with that). */
function isWorkerDeath(error: unknown): boolean {
  return (
    /worker.*(exit|terminat)/i.test(messageOf(error)) ||
    codeOf(error) === 'ERR_WORKER_INIT_FAILED' ||
    (error instanceof Error && error.name === 'RuntimeError')
  );
}

/** The file services, each call a task of the pool. */
export function pooledServices(pool: DocumentPool): DocumentServices {
  const call =
    <K extends ServiceName>(service: K) =>
    (upload: UploadedDocument, options: ServiceOptions<K>) =>
      pool.run(service, upload, options);
  return {
    maskAadhaar: call('maskAadhaar'),
    maskPan: call('maskPan'),
    extractAadhaar: call('extractAadhaar'),
    extractPan: call('extractPan'),
    verify: call('verify'),
    redactPii: call('redactPii'),
    detectGlobal: call('detectGlobal'),
    redactGlobal: call('redactGlobal'),
  };
}
