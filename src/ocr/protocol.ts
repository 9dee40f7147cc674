/** Messages between the engine (paddle.ts) and its lanes' worker threads (worker.ts). */
import type { MessagePort } from 'node:worker_threads';
import type { StageTimings } from './options.js';
import type { PageText } from '../domain/text-layer.js';
import type { ReadHints, ReadPurpose } from './types.js';

export type WorkerRequest =
  | {
      readonly type: 'read';
      readonly id: number;
      readonly page: number;
      readonly purpose: ReadPurpose;
      readonly hints: ReadHints;
      readonly width: number;
      readonly height: number;
      readonly channels: 3 | 4;
      readonly pixels: Uint8Array;
    }
  | { readonly type: 'close'; readonly id: number }
  /** Another thread's port: its reads join the queue and are answered on it. */
  | { readonly type: 'connect'; readonly port: MessagePort }
  /** A port to another lane, to ask it for help and to give it (peers.ts). */
  | { readonly type: 'peer'; readonly lane: number; readonly port: MessagePort };

export type WorkerResponse =
  | { readonly type: 'ready' }
  | { readonly type: 'failed'; readonly message: string }
  | {
      readonly type: 'result';
      readonly id: number;
      readonly text: PageText;
      readonly timings: StageTimings;
    }
  | { readonly type: 'error'; readonly id: number; readonly message: string }
  | { readonly type: 'closed'; readonly id: number };
