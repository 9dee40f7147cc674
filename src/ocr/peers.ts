/**
 * Lanes helping each other (lanes.ts): a lane with lines to read hands part of them to a peer
 * lane that is idle, over a port between the two, and reads the rest itself. The page's pixels
 * are in shared memory, so the hand-over copies nothing but the frames.
 */
import type { MessagePort } from 'node:worker_threads';
import type { RasterImage } from '../domain/raster.js';
import type { LaneLoads } from './lanes.js';
import { splitTasks, type LineReader, type LineTask, type ReadLine } from './lines.js';
import type { ReadPurpose } from './types.js';

export interface HelpResult {
  readonly lines: ReadLine[];
  readonly runs: number;
  readonly columns: number;
}

/** Messages between two lanes, in both directions over the port that joins them. */
export type PeerMessage =
  | {
      readonly type: 'help';
      readonly id: number;
      readonly width: number;
      readonly height: number;
      readonly channels: 3 | 4;
      readonly pixels: Uint8Array;
      readonly purpose: ReadPurpose;
      readonly tasks: readonly LineTask[];
    }
  | ({ readonly type: 'helped'; readonly id: number } & HelpResult)
  | { readonly type: 'help-failed'; readonly id: number; readonly message: string };

/** What a lane asks of its peers while it reads a page. */
export interface LineHelper {
  /** Sends the tasks to a peer lane that is idle now; undefined when none is. */
  tryRead(
    image: RasterImage,
    purpose: ReadPurpose,
    tasks: readonly LineTask[],
  ): Promise<HelpResult> | undefined;
}

type Serve = (
  image: RasterImage,
  purpose: ReadPurpose,
  tasks: readonly LineTask[],
) => Promise<HelpResult>;

interface Pending {
  readonly lane: number;
  readonly resolve: (result: HelpResult) => void;
  readonly reject: (error: Error) => void;
}

/** This lane's ports to the others: it asks them for help and answers theirs. */
export class Peers implements LineHelper {
  private readonly ports = new Map<number, MessagePort>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Help given one request at a time (the lane has one recogniser buffer for it). */
  private serving = Promise.resolve();
  /** The pixels of the page being read, in shared memory, for as long as it is read. */
  private readonly sharedPixels = new WeakMap<RasterImage, Uint8Array>();

  constructor(
    private readonly loads: LaneLoads,
    private readonly serve: Serve,
  ) {}

  add(lane: number, port: MessagePort): void {
    this.ports.set(lane, port);
    port.on('message', (message: PeerMessage) => {
      this.receive(port, message);
    });
    port.on('close', () => {
      this.ports.delete(lane);
      for (const [id, pending] of this.pending) {
        if (pending.lane !== lane) continue;
        this.pending.delete(id);
        pending.reject(new Error('A peer lane closed.'));
      }
    });
  }

  tryRead(
    image: RasterImage,
    purpose: ReadPurpose,
    tasks: readonly LineTask[],
  ): Promise<HelpResult> | undefined {
    for (const [lane, port] of this.ports) {
      if (this.loads.busy(lane) > 0) continue;
      const id = this.nextId++;
      const message: PeerMessage = {
        type: 'help',
        id,
        width: image.width,
        height: image.height,
        channels: image.channels,
        pixels: this.shared(image),
        purpose,
        tasks,
      };
      return new Promise((resolve, reject) => {
        this.pending.set(id, { lane, resolve, reject });
        port.postMessage(message);
      });
    }
    return undefined;
  }

  close(): void {
    for (const port of this.ports.values()) port.close();
    this.ports.clear();
  }

  private receive(port: MessagePort, message: PeerMessage): void {
    if (message.type === 'help') {
      const { id, width, height, channels, pixels, purpose, tasks } = message;
      const image: RasterImage = {
        width,
        height,
        channels,
        pixels: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.length),
      };
      this.serving = this.serving.then(async () => {
        try {
          port.postMessage({ type: 'helped', id, ...(await this.serve(image, purpose, tasks)) });
        } catch (error) {
          // Our own messages and onnxruntime's hold shapes and names, never page content.
          const text = error instanceof Error ? error.message : 'unknown error';
          port.postMessage({ type: 'help-failed', id, message: text });
        }
      });
      return;
    }
    const pending = this.pending.get(message.id);
    if (pending === undefined) return;
    this.pending.delete(message.id);
    if (message.type === 'helped') pending.resolve(message);
    else pending.reject(new Error(`A peer lane failed: ${message.message}`));
  }

  /** The image's pixels in shared memory: as they came when they did, else copied once. */
  private shared(image: RasterImage): Uint8Array {
    const size = image.width * image.height * image.channels;
    const { pixels } = image;
    if (pixels.buffer instanceof SharedArrayBuffer) {
      return new Uint8Array(pixels.buffer, pixels.byteOffset, size);
    }
    let copy = this.sharedPixels.get(image);
    if (copy === undefined) {
      copy = new Uint8Array(new SharedArrayBuffer(size));
      copy.set(pixels.subarray(0, size));
      this.sharedPixels.set(image, copy);
    }
    return copy;
  }
}

/** A hand-over's cost in crop columns: the message each way (about 1 ms). */
const HAND_OVER = 40;

/**
 * Reads the tasks, a share of them on an idle peer when there is one. Results come in the
 * tasks' order and are the same as reading them all here (every lane runs the same models
 * with the same settings). While the peer has not answered, this lane goes on to the peer's
 * share itself, so that a peer that turned busy or failed costs no more than reading alone.
 */
export async function readShared(
  reader: LineReader,
  helper: LineHelper | undefined,
  image: RasterImage,
  purpose: ReadPurpose,
  tasks: readonly LineTask[],
  cropHeight: number,
): Promise<ReadLine[]> {
  if (helper === undefined || tasks.length < 2) return reader.readAll(tasks);
  const { first, second } = splitTasks(tasks, cropHeight, HAND_OVER);
  const at = (i: number) => tasks[i] as LineTask;
  const asked = second.length > 0 ? helper.tryRead(image, purpose, second.map(at)) : undefined;
  if (asked === undefined) return reader.readAll(tasks);
  const answer: { result?: HelpResult } = {};
  // A failed peer is not an error: this lane reads its share (below).
  // So is an answer that does not hold one line per task handed over.
  void asked.then(
    (result) => {
      if (result.lines.length === second.length) answer.result = result;
    },
    () => undefined,
  );
  const lines: ReadLine[] = [];
  for (const i of first) lines[i] = await reader.read(at(i));
  const own: ReadLine[] = [];
  for (const i of second) {
    if (answer.result !== undefined) break;
    own.push(await reader.read(at(i)));
  }
  let theirs = own;
  if (own.length < second.length && answer.result !== undefined) {
    theirs = answer.result.lines;
    reader.runs += answer.result.runs;
    reader.columns += answer.result.columns;
    reader.peerRuns += answer.result.runs;
  }
  second.forEach((i, k) => {
    lines[i] = theirs[k] as ReadLine;
  });
  return lines;
}
