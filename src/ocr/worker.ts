/**
 * The worker thread that owns the models. onnxruntime-node computes synchronously on the
 * thread that calls `run()`, so the models live here and the server's event loop stays free
 * (DESIGN rule 6). Requests come from the owning thread and from ports other threads connect
 * (document workers); all are served one at a time, in order of arrival.
 */
import os from 'node:os';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Settings } from './options.js';
import { createPaddlePipeline, type PaddlePipeline } from './pipeline.js';
import type { WorkerRequest, WorkerResponse } from './protocol.js';

const port = parentPort;
if (port === null) throw new Error('worker.ts runs as a worker thread only.');

type Reply = (message: WorkerResponse) => void;

function post(message: WorkerResponse): void {
  port?.postMessage(message);
}

/** Error text for the engine: our own messages and onnxruntime's hold shapes and names, never page content. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown error';
}

async function handle(pipeline: PaddlePipeline, request: WorkerRequest, reply: Reply) {
  if (request.type === 'connect') return;
  if (request.type === 'close') {
    await pipeline.close();
    reply({ type: 'closed', id: request.id });
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
      request.hints,
    );
    reply({ type: 'result', id: request.id, text, timings });
  } catch (error) {
    reply({ type: 'error', id: request.id, message: describe(error) });
  }
}

// Below the HTTP thread when the cores are contended (see services/pool/priority.ts); set
// before the models load, so that onnxruntime's own threads inherit it. Linux nice values are
// per thread: this lowers this thread and those it starts, not the process.
try {
  const { threadNice } = workerData as Settings;
  if (threadNice !== 0) os.setPriority(threadNice);
} catch {
  // A platform that refuses it keeps the default priority.
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
  const enqueue = (request: WorkerRequest, reply: Reply, open: () => boolean = () => true) => {
    // A connected thread that went away (its document ended or its worker was retired) has
    // its queued reads dropped rather than computed for nobody.
    queue = queue.then(() => (open() ? handle(ready, request, reply) : undefined));
  };
  const connect = (other: MessagePort) => {
    let open = true;
    other.on('close', () => {
      open = false;
    });
    other.on('message', (request: WorkerRequest) => {
      // Only reads travel over a connected port; closing the engine is its owner's call.
      if (request.type !== 'read') return;
      enqueue(
        request,
        (message) => {
          other.postMessage(message);
        },
        () => open,
      );
    });
  };
  port.on('message', (request: WorkerRequest) => {
    if (request.type === 'connect') connect(request.port);
    else enqueue(request, post);
  });
}
