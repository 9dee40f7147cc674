/**
 * The worker thread that owns the models. onnxruntime-node computes synchronously on the
 * thread that calls `run()`, so the models live here and the server's event loop stays free
 * (DESIGN rule 6). Requests are served one at a time, in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Settings } from './options.js';
import { createPaddlePipeline, type PaddlePipeline } from './pipeline.js';
import type { WorkerRequest, WorkerResponse } from './protocol.js';

const port = parentPort;
if (port === null) throw new Error('worker.ts runs as a worker thread only.');

function post(message: WorkerResponse): void {
  port?.postMessage(message);
}

/** Error text for the engine: our own messages and onnxruntime's hold shapes and names, never page content. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown error';
}

async function handle(pipeline: PaddlePipeline, request: WorkerRequest): Promise<void> {
  if (request.type === 'close') {
    await pipeline.close();
    post({ type: 'closed', id: request.id });
    port?.close();
    return;
  }
  try {
    const { text, timings } = await pipeline.read(
      {
        width: request.width,
        height: request.height,
        channels: request.channels,
        pixels: Buffer.from(
          request.pixels.buffer,
          request.pixels.byteOffset,
          request.pixels.length,
        ),
      },
      request.page,
      request.purpose,
    );
    post({ type: 'result', id: request.id, text, timings });
  } catch (error) {
    post({ type: 'error', id: request.id, message: describe(error) });
  }
}

let pipeline: PaddlePipeline | undefined;
try {
  pipeline = await createPaddlePipeline(workerData as Settings);
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', message: describe(error) });
  port.close();
}

if (pipeline !== undefined) {
  const ready = pipeline;
  let queue = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    queue = queue.then(() => handle(ready, request));
  });
}
