/**
 * The calling side of the OCR worker's protocol (protocol.ts), over any message endpoint: the
 * worker itself, or a MessagePort connected to it from another thread (a document worker).
 * Reads are answered in order; once the endpoint is gone every pending and later read fails
 * (fail closed).
 */
import { noteStage } from '../domain/stage-times.js';
import { ScratchBuffers } from '../domain/scratch-buffers.js';
import type { StageTimings } from './options.js';
import type { WorkerRequest, WorkerResponse } from './protocol.js';
import type { RasterImage } from '../domain/raster.js';
import type { PageText } from '../domain/text-layer.js';
import type { OcrEngine, ReadHints, ReadPurpose } from './types.js';

/** What a Worker and a MessagePort have in common, as far as the protocol needs. */
export interface OcrEndpoint {
  postMessage(message: ClientRequest, transfer: ArrayBuffer[]): void;
  on(event: 'message', listener: (message: WorkerResponse) => void): unknown;
  ref(): void;
  unref(): void;
}

/** The requests a client sends (connecting ports is the engine owner's business). */
type ClientRequest = Exclude<WorkerRequest, { readonly type: 'connect' | 'peer' }>;

interface Pending {
  readonly resolve: (response: WorkerResponse) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Copies of pages' pixels for the lanes, kept between reads (scratch-buffers.ts) by every client
 * of this thread: a document worker makes a client per document.
 */
const pixelCopies = new ScratchBuffers((length) => new Uint8Array(new SharedArrayBuffer(length)));

export class OcrClient implements OcrEngine {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Set once the endpoint is gone; every later call fails with it. */
  private failure: Error | undefined;

  constructor(private readonly endpoint: OcrEndpoint) {
    endpoint.on('message', (message: WorkerResponse) => {
      if (message.type === 'ready' || message.type === 'failed') return;
      const pending = this.pending.get(message.id);
      if (pending === undefined) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) endpoint.unref();
      pending.resolve(message);
    });
  }

  async read(
    image: RasterImage,
    page: number,
    purpose: ReadPurpose = 'text',
    hints: ReadHints = {},
  ): Promise<PageText> {
    return (await this.readWithTimings(image, page, purpose, hints)).text;
  }

  /** `read`, plus how long each stage took in the worker (for benchmarks; no text in it). */
  async readWithTimings(
    image: RasterImage,
    page: number,
    purpose: ReadPurpose = 'text',
    hints: ReadHints = {},
  ): Promise<{ text: PageText; timings: StageTimings }> {
    const { width, height, channels, pixels } = image;
    const size = width * height * channels;
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
      throw new Error('The image to read has no pixels.');
    }
    if (pixels.length < size) {
      throw new Error('The image buffer is shorter than its width, height and channels say.');
    }
    // A private copy in shared memory crosses to the lane without a copy of its own: the caller
    // keeps its pixels, no larger buffer behind a Buffer view goes along, and a peer lane that
    // reads part of the lines (peers.ts) shares the same pixels. The copies are kept between
    // reads (scratch-buffers.ts); the lane is done with one when it answers.
    const response = await pixelCopies.with(size, (copy) => {
      copy.set(pixels.subarray(0, size));
      return this.send(
        {
          type: 'read',
          id: this.nextId++,
          page,
          purpose,
          hints,
          width,
          height,
          channels,
          pixels: copy,
        },
        [],
      );
    });
    if (response.type === 'result') {
      noteReading(response.timings);
      return { text: response.text, timings: response.timings };
    }
    if (response.type === 'error')
      throw new Error(`OCR failed on page ${page}: ${response.message}`);
    throw new Error('Unexpected reply from the OCR worker.');
  }

  /** False once the endpoint is gone: every later read would fail. */
  get usable(): boolean {
    return this.failure === undefined;
  }

  /** The endpoint belongs to whoever made it; closing the client only refuses later reads. */
  close(): Promise<void> {
    this.fail(new Error('The OCR engine is closed.'));
    return Promise.resolve();
  }

  send(request: ClientRequest, transfer: ArrayBuffer[]): Promise<WorkerResponse> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject });
      this.endpoint.ref();
      this.endpoint.postMessage(request, transfer);
    });
  }

  /** The next request id (for requests other than reads, such as `close`). */
  nextRequestId(): number {
    return this.nextId++;
  }

  /** Refuses later reads; those already sent are still answered. */
  refuse(error: Error): void {
    this.failure ??= error;
  }

  /** Fails every pending and later read (the endpoint is gone). */
  fail(error: Error): void {
    this.failure ??= error;
    for (const pending of this.pending.values()) pending.reject(this.failure);
    this.pending.clear();
  }
}

/** A reading's stages, for a benchmark's recording (stage-times.ts); nothing when none is on. */
function noteReading(t: StageTimings): void {
  // A reading of known lines (ReadHints.lines) has no detection pass and no direction decision.
  if (t.detectionInputs !== '') {
    noteStage('ocr detection', t.detection - t.sideways, { boxes: t.boxes });
    if (t.sideways > 0) noteStage('ocr sideways detection', t.sideways);
    noteStage('ocr orientation', t.orientation);
  }
  noteStage('ocr recognition', t.recognition, {
    lines: t.recognitionRuns,
    columns: t.recognitionColumns,
    'on a peer lane': t.peerRuns,
  });
}
