/**
 * The OCR engine: PP-OCR models on onnxruntime-node, run in worker threads that this object
 * owns (see worker.ts for why), one per lane (lanes.ts). Create one per process; `close()`
 * releases the models and ends the threads. Each lane serves its reads one at a time, in order,
 * whether they come from this thread or from a document worker connected with `connect()`;
 * while none is pending the lanes do not keep the process alive.
 */
import './telemetry-off.js';
import os from 'node:os';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { OcrClient } from './client.js';
import { LaneLoads, type LaneData } from './lanes.js';
import {
  resolveSettings,
  type PaddleOcrOptions,
  type Settings,
  type StageTimings,
} from './options.js';
import type { WorkerResponse } from './protocol.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText } from '../domain/text-layer.js';
import type { OcrEngine, ReadHints, ReadPurpose } from './types.js';

/** Starts one lane's worker and waits until its models are loaded. */
async function startLane(data: LaneData<Settings>): Promise<Worker> {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: data });
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
  return worker;
}

export class PaddleOcr implements OcrEngine {
  private readonly clients: OcrClient[];
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly workers: readonly Worker[],
    private readonly loads: LaneLoads,
  ) {
    // A lane that dies takes the engine with it: every read fails (fail closed), the other
    // lanes are ended, and the next request gets a fresh engine (services/engines.ts).
    const fail = (error: Error) => {
      for (const client of this.clients) client.fail(error);
      for (const other of workers) void other.terminate();
    };
    this.clients = workers.map((worker) => {
      worker.on('error', (error) => {
        fail(new Error(`The OCR worker failed: ${error.message}`));
      });
      worker.on('exit', () => {
        fail(new Error('The OCR engine is closed.'));
      });
      const client = new OcrClient(worker);
      // Attaching listeners refs the worker's port again; idle, it must not keep the process alive.
      worker.unref();
      return client;
    });
  }

  /** Starts the lanes, waits until each has its models loaded, and joins them to each other. */
  static async start(options: PaddleOcrOptions = {}): Promise<PaddleOcr> {
    const settings = resolveSettings(options, os.availableParallelism());
    const loads = LaneLoads.create(settings.lanes);
    const started = await Promise.allSettled(
      Array.from({ length: settings.lanes }, (_, lane) =>
        startLane({ settings, lane, loads: loads.buffer }),
      ),
    );
    const workers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failure = started.find((s) => s.status === 'rejected');
    if (failure !== undefined) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw failure.reason;
    }
    workers.forEach((worker, lane) => {
      for (let peer = lane + 1; peer < workers.length; peer += 1) {
        const { port1, port2 } = new MessageChannel();
        worker.postMessage({ type: 'peer', lane: peer, port: port1 }, [port1]);
        workers[peer]?.postMessage({ type: 'peer', lane, port: port2 }, [port2]);
      }
    });
    return new PaddleOcr(workers, loads);
  }

  read(
    image: RasterImage,
    page: number,
    purpose: ReadPurpose = 'text',
    hints: ReadHints = {},
  ): Promise<PageText> {
    return this.onLane((client) => client.read(image, page, purpose, hints));
  }

  /** `read`, plus how long each stage took in the worker (for benchmarks; no text in it). */
  readWithTimings(
    image: RasterImage,
    page: number,
    purpose: ReadPurpose = 'text',
    hints: ReadHints = {},
  ): Promise<{ text: PageText; timings: StageTimings }> {
    return this.onLane((client) => client.readWithTimings(image, page, purpose, hints));
  }

  /**
   * A port for another thread to read through (wrap it in an OcrClient there), on the lane with
   * least to do. Its reads join that lane's queue; when the other end closes, its queued reads
   * are dropped.
   */
  connect(): MessagePort {
    if (!this.usable) throw new Error('The OCR engine is closed.');
    const lane = this.loads.leastLoaded();
    // The lane counts the connection off when its port closes (worker.ts).
    this.loads.addAssigned(lane, 1);
    const { port1, port2 } = new MessageChannel();
    this.workers[lane]?.postMessage({ type: 'connect', port: port2 }, [port2]);
    return port1;
  }

  /** False once a lane has died or the engine was closed: every later read would fail. */
  get usable(): boolean {
    return this.clients.every((client) => client.usable);
  }

  /** How many lanes read at once. */
  get lanes(): number {
    return this.workers.length;
  }

  async close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all(
        this.clients.map(async (client) => {
          if (!client.usable) return;
          const closed = client.send({ type: 'close', id: client.nextRequestId() }, []);
          // Reads asked for from now on are refused; those already queued finish first.
          client.refuse(new Error('The OCR engine is closed.'));
          // A lane that ends first fails the others' pending requests, this one included.
          await closed.catch(() => undefined);
        }),
      );
      await Promise.all(this.workers.map((w) => w.terminate()));
    })();
    return this.closing;
  }

  /** Runs a read of this thread's on the lane with least to do. */
  private async onLane<T>(read: (client: OcrClient) => Promise<T>): Promise<T> {
    const lane = this.loads.leastLoaded();
    this.loads.addAssigned(lane, 1);
    try {
      return await read(this.clients[lane] as OcrClient);
    } finally {
      this.loads.addAssigned(lane, -1);
    }
  }
}

/** Loads the models once, in a worker thread; the caller keeps one engine per process. */
export async function createPaddleOcr(options: PaddleOcrOptions = {}): Promise<PaddleOcr> {
  return PaddleOcr.start(options);
}
