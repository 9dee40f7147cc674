/**
 * What crosses between the HTTP thread and a document worker: tasks, results and errors as
 * structured-clone data. Rules (objects with functions) travel as their type names; errors
 * travel as their kind and code and are rebuilt as the classes the API maps; results' bytes
 * arrive as Uint8Array and become Buffers again.
 */
import type { MessagePort } from 'node:worker_threads';
import { DocumentError, type DocumentErrorCode } from '../../domain/errors.js';
import { GLOBAL_RULES } from '../../identifiers/catalogue.js';
import type { GlobalRule } from '../../identifiers/global-rule.js';
import type { UploadedDocument } from '../context.js';
import type { ServiceName } from '../document-services.js';
import {
  callSites,
  DocumentTooComplexError,
  InvalidOptionError,
  NoDocumentError,
  InvalidRequestError,
  UnknownTypeError,
} from '../errors.js';

export interface Task {
  /** A file service, or `warmUp`: synthetic documents through the pipeline (warm-up.ts). */
  readonly service: ServiceName | 'warmUp';
  readonly upload: UploadedDocument;
  readonly options: WireOptions;
  /** Connected to the process's OCR engine. */
  readonly ocrPort: MessagePort;
  /** The worker reports `started` and the page count on it. */
  readonly progress: MessagePort;
}

export type Progress =
  { readonly type: 'started' } | { readonly type: 'pages'; readonly pages: number };

export type WireOptions = Record<string, unknown>;

export type WireError =
  | { readonly kind: 'document'; readonly code: DocumentErrorCode; readonly message: string }
  | { readonly kind: 'no_document' | 'invalid_request' | 'unknown_type'; readonly message: string }
  | {
      readonly kind: 'invalid_option';
      readonly code: InvalidOptionError['code'];
      readonly message: string;
    }
  | { readonly kind: 'too_complex'; readonly message: string }
  | { readonly kind: 'unexpected'; readonly type: string; readonly frames: readonly string[] };

export type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly error: WireError;
      /** The worker must not take another task (its WebAssembly state may be corrupt). */
      readonly retire: boolean;
      readonly threadId: number;
    }
  /** A retired worker's answer to a task it did not start: run it elsewhere. */
  | { readonly ok: false; readonly poisoned: true; readonly threadId: number };

/** Options as they travel: `rules` as `ruleTypes`. */
export function toWireOptions(options: object): WireOptions {
  const { rules, ...rest } = options as { rules?: readonly GlobalRule[] };
  return rules === undefined ? rest : { ...rest, ruleTypes: rules.map((r) => r.type) };
}

export function fromWireOptions(options: WireOptions): Record<string, unknown> {
  const { ruleTypes, ...rest } = options as { ruleTypes?: readonly string[] };
  if (ruleTypes === undefined) return rest;
  // Catalogue order, as resolveEntityTypes gives them; the worker loaded the same plugins.
  return { ...rest, rules: GLOBAL_RULES.filter((rule) => ruleTypes.includes(rule.type)) };
}

const STACK_OVERFLOW = /maximum call stack/i;

// The WebAssembly global is not in the project's lib typings (no DOM lib).
const { RuntimeError } = (
  globalThis as unknown as { WebAssembly: { RuntimeError: abstract new () => Error } }
).WebAssembly;

/** Whether an error is a WebAssembly trap, after which the module's state cannot be trusted. */
export function isTrap(error: unknown): boolean {
  return error instanceof RuntimeError;
}

/** The error a worker sends back; `retire` when the worker must not be used again. */
export function serialiseError(error: unknown): { error: WireError; retire: boolean } {
  if (error instanceof DocumentError) {
    return { error: { kind: 'document', code: error.code, message: error.message }, retire: false };
  }
  if (error instanceof NoDocumentError) {
    return { error: { kind: 'no_document', message: error.message }, retire: false };
  }
  if (error instanceof InvalidRequestError) {
    return { error: { kind: 'invalid_request', message: error.message }, retire: false };
  }
  if (error instanceof UnknownTypeError) {
    return { error: { kind: 'unknown_type', message: error.message }, retire: false };
  }
  if (error instanceof InvalidOptionError) {
    return {
      error: { kind: 'invalid_option', code: error.code, message: error.message },
      retire: false,
    };
  }
  if (isTrap(error) || (error instanceof RangeError && STACK_OVERFLOW.test(error.message))) {
    return {
      error: {
        kind: 'too_complex',
        message:
          'The document is too complex to process: reading it exhausted the PDF engine (for example a structure that refers to itself).',
      },
      retire: true,
    };
  }
  if (error instanceof Error && callSites(error).some((frame) => frame.includes('/mupdf/'))) {
    // MuPDF refused something in the file itself; its own message may quote the file.
    return {
      error: {
        kind: 'document',
        code: 'corrupt_file',
        message: 'The document could not be processed: part of its structure is damaged.',
      },
      retire: false,
    };
  }
  const type = error instanceof Error ? error.name : typeof error;
  return {
    error: { kind: 'unexpected', type, frames: error instanceof Error ? callSites(error) : [] },
    retire: false,
  };
}

/** A failure of ours inside a worker, with its call sites for the log (no message). */
export class WorkerFailure extends Error {
  override name = 'WorkerFailure';
  constructor(type: string, frames: readonly string[]) {
    super('A document worker failed unexpectedly.');
    this.stack = [`${type}: (message withheld)`, ...frames.map((f) => `    ${f}`)].join('\n');
  }
}

export function reviveError(error: WireError): Error {
  switch (error.kind) {
    case 'document':
      return new DocumentError(error.code, error.message);
    case 'no_document':
      return new NoDocumentError(error.message);
    case 'invalid_request':
      return new InvalidRequestError(error.message);
    case 'unknown_type':
      return new UnknownTypeError(error.message);
    case 'invalid_option':
      return new InvalidOptionError(error.code, error.message);
    case 'too_complex':
      return new DocumentTooComplexError(error.message);
    case 'unexpected':
      return new WorkerFailure(error.type, error.frames);
  }
}

/** A result as the caller expects it: structured clone turned its Buffers into Uint8Arrays. */
export function reviveResult(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && 'bytes' in value) {
    const bytes = value.bytes;
    if (bytes instanceof Uint8Array && !Buffer.isBuffer(bytes)) {
      return { ...value, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) };
    }
  }
  return value;
}
