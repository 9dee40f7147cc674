/**
 * The OCR engine: PP-OCR models on onnxruntime-node, run in a worker thread that this object
 * owns (see worker.ts for why). Create one per process; `close()` releases the models and
 * ends the thread. Reads are served one at a time, in order; while none is pending the worker
 * does not keep the process alive.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { resolveSettings, type PaddleOcrOptions, type StageTimings } from './options.js';
import type { WorkerRequest, WorkerResponse } from './protocol.js';
import type { OcrEngine, PageText, RasterImage, ReadPurpose } from './types.js';

interface Pending {
  readonly resolve: (response: WorkerResponse) => void;
  readonly reject: (error: Error) => void;
}

export class PaddleOcr implements OcrEngine {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Set once the worker is gone; every later call fails with it (fail closed). */
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: WorkerResponse) => {
      if (message.type === 'ready' || message.type === 'failed') return;
      const pending = this.pending.get(message.id);
      if (pending === undefined) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      pending.resolve(message);
    });
    worker.on('error', (error) => {
      this.fail(new Error(`The OCR worker failed: ${error.message}`));
    });
    worker.on('exit', () => {
      this.fail(new Error('The OCR engine is closed.'));
    });
  }

  /** Starts the worker and waits until its models are loaded. */
  static async start(options: PaddleOcrOptions = {}): Promise<PaddleOcr> {
    const settings = resolveSettings(options, os.availableParallelism());
    const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: settings });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: WorkerResponse): void => {
        if (message.type === 'ready') done();
        else if (message.type === 'failed')
          done(new Error(`OCR models failed to load: ${message.message}`));
      };
      const onError = (error: Error): void => {
        done(error);
      };
      const onExit = (): void => {
        done(new Error('The OCR worker exited while loading the models.'));
      };
      function done(error?: Error): void {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (error === undefined) {
          resolve();
        } else {
          void worker.terminate();
          reject(error);
        }
      }
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    worker.unref();
    return new PaddleOcr(worker);
  }

  async read(image: RasterImage, page: number, purpose: ReadPurpose = 'text'): Promise<PageText> {
    return (await this.readWithTimings(image, page, purpose)).text;
  }

  /** `read`, plus how long each stage took in the worker (for benchmarks; no text in it). */
  async readWithTimings(
    image: RasterImage,
    page: number,
    purpose: ReadPurpose = 'text',
  ): Promise<{ text: PageText; timings: StageTimings }> {
    const { width, height, channels, pixels } = image;
    const size = width * height * channels;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new Error('The image to read has no pixels.');
    }
    if (pixels.length < size) {
      throw new Error('The image buffer is shorter than its width, height and channels say.');
    }
    // A private copy crosses to the worker by transfer: the caller keeps its own pixels, and
    // no larger buffer behind a Buffer view is cloned along with it.
    const copy = new Uint8Array(size);
    copy.set(pixels.subarray(0, size));
    const response = await this.send(
      { type: 'read', id: this.nextId++, page, purpose, width, height, channels, pixels: copy },
      [copy.buffer],
    );
    if (response.type === 'result') return { text: response.text, timings: response.timings };
    if (response.type === 'error')
      throw new Error(`OCR failed on page ${page}: ${response.message}`);
    throw new Error('Unexpected reply from the OCR worker.');
  }

  /** False once the worker has died or the engine was closed: every later read would fail. */
  get usable(): boolean {
    return this.failure === undefined;
  }

  async close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.failure === undefined) {
        const closed = this.send({ type: 'close', id: this.nextId++ }, []);
        // Reads asked for from now on are refused; those already queued finish first.
        this.failure = new Error('The OCR engine is closed.');
        await closed;
      }
      await this.worker.terminate();
    })();
    return this.closing;
  }

  private send(request: WorkerRequest, transfer: ArrayBuffer[]): Promise<WorkerResponse> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage(request, transfer);
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const pending of this.pending.values()) pending.reject(this.failure);
    this.pending.clear();
  }
}

/** Loads the models once, in a worker thread; the caller keeps one engine per process. */
export async function createPaddleOcr(options: PaddleOcrOptions = {}): Promise<PaddleOcr> {
  return PaddleOcr.start(options);
}
