/**
 * One lane of the engine (lanes.ts): a worker thread that owns a set of the models.
 * onnxruntime-node computes synchronously on the thread that calls `run()`, so the models live
 * here and the server's event loop stays free (DESIGN rule 6). Reads come from the owning
 * thread and from ports other threads connect (document workers); all are served one at a
 * time, in order of arrival. Lines handed over by a peer lane are read between them.
 */
import os from 'node:os';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { collectGarbage } from '../domain/collect-garbage.js';
import { LaneLoads, type LaneData } from './lanes.js';
import type { Settings } from './options.js';
import { Peers } from './peers.js';
import { createPaddlePipeline, type PaddlePipeline } from './pipeline.js';
import type { WorkerRequest, WorkerResponse } from './protocol.js';

const data = workerData as LaneData<Settings>;
const loads = new LaneLoads(data.loads);

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
  if (request.type === 'connect' || request.type === 'peer') return;
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
  const { threadNice } = data.settings;
  if (threadNice !== 0) os.setPriority(threadNice);
} catch {
  // A platform that refuses it keeps the default priority.
}

let pipeline: PaddlePipeline | undefined;
try {
  pipeline = await createPaddlePipeline(data.settings);
  // Folding the graphs (graph-folding.ts) leaves about 20 MB of parsed protobuf behind in this
  // thread's heap, which an idle lane would keep (domain/collect-garbage.ts).
  collectGarbage();
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'failed', message: describe(error) });
  port.close();
}

if (pipeline !== undefined) {
  const ready = pipeline;
  const peers = new Peers(loads, (image, purpose, tasks) => ready.help(image, purpose, tasks));
  ready.helper = peers;
  let queue = Promise.resolve();
  const enqueue = (request: WorkerRequest, reply: Reply, open: () => boolean = () => true) => {
    // Counted from arrival, so that a peer sees this lane busy as soon as a read waits here.
    if (request.type === 'read') loads.addBusy(data.lane, 1);
    // A connected thread that went away (its document ended or its worker was retired) has
    // its queued reads dropped rather than computed for nobody.
    queue = queue.then(async () => {
      try {
        if (open()) await handle(ready, request, reply);
      } finally {
        if (request.type === 'read') loads.addBusy(data.lane, -1);
      }
    });
  };
  const connect = (other: MessagePort) => {
    let open = true;
    other.on('close', () => {
      open = false;
      // The engine counted the connection when it chose this lane (paddle.ts).
      loads.addAssigned(data.lane, -1);
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
    else if (request.type === 'peer') peers.add(request.lane, request.port);
    else if (request.type === 'close') {
      enqueue(request, post);
      peers.close();
    } else enqueue(request, post);
  });
}
