/**
 * The OCR engine: PP-OCR models on onnxruntime-node, run in a worker thread that this object
 * owns (see worker.ts for why). Create one per process; `close()` releases the models and
 * ends the thread. Reads are served one at a time, in order, whether they come from this
 * thread or from document workers connected with `connect()`; while none is pending the worker
 * does not keep the process alive.
 */
import os from 'node:os';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { OcrClient } from './client.js';
import { resolveSettings, type PaddleOcrOptions, type StageTimings } from './options.js';
import type { WorkerResponse } from './protocol.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText } from '../domain/text-layer.js';
import type { OcrEngine, ReadHints, ReadPurpose } from './types.js';

export class PaddleOcr implements OcrEngine {
  private readonly client: OcrClient;
  private closing: Promise<void> | undefined;

  private constructor(private readonly worker: Worker) {
    this.client = new OcrClient(worker);
    worker.on('error', (error) => {
      this.client.fail(new Error(`The OCR worker failed: ${error.message}`));
    });
    worker.on('exit', () => {
      this.client.fail(new Error('The OCR engine is closed.'));
    });
    // Attaching listeners refs the worker's port again; idle, it must not keep the process alive.
    worker.unref();
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
    return new PaddleOcr(worker);
  }

  read(
    image: RasterImage,
    page: number,
    purpose: ReadPurpose = 'text',
    hints: ReadHints = {},
  ): Promise<PageText> {
    return this.client.read(image, page, purpose, hints);
  }

  /** `read`, plus how long each stage took in the worker (for benchmarks; no text in it). */
  readWithTimings(
    image: RasterImage,
    page: number,
    purpose: ReadPurpose = 'text',
    hints: ReadHints = {},
  ): Promise<{ text: PageText; timings: StageTimings }> {
    return this.client.readWithTimings(image, page, purpose, hints);
  }

  /**
   * A port for another thread to read through (wrap it in an OcrClient there). Its reads join
   * the same queue as this thread's; when the other end closes, its queued reads are dropped.
   */
  connect(): MessagePort {
    if (!this.client.usable) throw new Error('The OCR engine is closed.');
    const { port1, port2 } = new MessageChannel();
    this.worker.postMessage({ type: 'connect', port: port2 }, [port2]);
    return port1;
  }

  /** False once the worker has died or the engine was closed: every later read would fail. */
  get usable(): boolean {
    return this.client.usable;
  }

  async close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.client.usable) {
        const closed = this.client.send({ type: 'close', id: this.client.nextRequestId() }, []);
        // Reads asked for from now on are refused; those already queued finish first.
        this.client.refuse(new Error('The OCR engine is closed.'));
        await closed;
      }
      await this.worker.terminate();
    })();
    return this.closing;
  }
}

/** Loads the models once, in a worker thread; the caller keeps one engine per process. */
export async function createPaddleOcr(options: PaddleOcrOptions = {}): Promise<PaddleOcr> {
  return PaddleOcr.start(options);
}
