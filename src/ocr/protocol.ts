/** Messages between the engine (paddle.ts) and its worker thread (worker.ts). */
import type { StageTimings } from './options.js';
import type { PageText, ReadPurpose } from './types.js';

export type WorkerRequest =
  | {
      readonly type: 'read';
      readonly id: number;
      readonly page: number;
      readonly purpose: ReadPurpose;
      readonly width: number;
      readonly height: number;
      readonly channels: 3 | 4;
      readonly pixels: Uint8Array;
    }
  | { readonly type: 'close'; readonly id: number };

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
