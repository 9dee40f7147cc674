/**
 * Bulk processing: the single-document service applied to each file, in parallel up to a
 * bound; one failing file fails only its own entry. Produces the entries of the README's
 * bulk manifest and the files of the ZIP.
 */
import { DocumentError } from '../domain/errors.js';
import type { WrittenFormat } from '../domain/formats.js';
import type { UploadedDocument } from './context.js';

/**
 * What became of one file of a batch, in one vocabulary for every batch endpoint: its values
 * covered (`done`), none found, or an error. Each endpoint names the first two in its own words
 * (`BatchWords`); a failed file's status is `error` everywhere (FAILURE), as the interface
 * names it for /global/batch/redact, and its count is `failed` (FAILED), as the interface names
 * the bulk manifest's count.
 */
export type FileStatus = 'done' | 'nothing_found' | 'error';

/** A failed file's status in every manifest. */
export const FAILURE = 'error';

/** The key of a manifest's count of failed files (the files whose status is `error`). */
export const FAILED = 'failed';

/** How an endpoint's manifest names `done` and `nothing_found` (`masked`, `no_number_found`...). */
export interface BatchWords {
  readonly done: string;
  readonly nothingFound: string;
}

export interface BulkFileResult {
  readonly bytes: Buffer;
  readonly format: WrittenFormat;
  /** Masking's re-read of the output (mask-document.ts); absent where none is made. */
  readonly residualCheck?: 'passed' | 'none' | 'skipped';
}

/** The values a file's result covered, and of them those covered although unverified. */
export interface FileTally {
  readonly covered: number;
  readonly unverified: number;
}

export interface BulkEntry<R extends BulkFileResult = BulkFileResult> {
  /** 1-based position in the request. */
  readonly index: number;
  readonly filename: string;
  readonly status: FileStatus;
  readonly covered: number;
  readonly unverified: number;
  /** For failures: the error code a single request would have got, and its message. */
  readonly error?: string;
  readonly message?: string;
  readonly result?: R;
}

export function statusWord(status: FileStatus, words: BatchWords): string {
  if (status === 'done') return words.done;
  return status === 'nothing_found' ? words.nothingFound : FAILURE;
}

/**
 * A manifest's counts, keyed by the statuses it reports: `submitted`, one count per status and
 * `documents_charged` (the files whose values were covered).
 */
export function batchCounts(entries: readonly BulkEntry[], words: BatchWords) {
  const count = (status: FileStatus) => entries.filter((e) => e.status === status).length;
  return {
    submitted: entries.length,
    [words.done]: count('done'),
    [words.nothingFound]: count('nothing_found'),
    [FAILED]: count('error'),
    documents_charged: count('done'),
  };
}

/** The fields a failed entry adds to its manifest row. */
export function errorFields(entry: BulkEntry): { error?: string; message?: string } {
  return entry.error === undefined ? {} : { error: entry.error, message: entry.message ?? '' };
}

/** Turns a per-file failure into the code and message of the error model. */
export type FailureMapper = (error: unknown) => { code: string; message: string } | null;

async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface BulkWork<R extends BulkFileResult> {
  readonly concurrency: number;
  readonly process: (file: UploadedDocument) => Promise<R>;
  readonly tally: (result: R) => FileTally;
  readonly mapFailure: FailureMapper;
  readonly onUnexpected: (error: unknown) => void;
}

export async function processBulk<R extends BulkFileResult>(
  files: readonly UploadedDocument[],
  work: BulkWork<R>,
): Promise<BulkEntry<R>[]> {
  const { process, tally, mapFailure, onUnexpected } = work;
  return mapBounded(files, work.concurrency, async (file, i) => {
    const base = { index: i + 1, filename: file.filename };
    try {
      const result = await process(file);
      const { covered, unverified } = tally(result);
      const status: FileStatus = covered > 0 ? 'done' : 'nothing_found';
      return { ...base, status, covered, unverified, result };
    } catch (error) {
      const known =
        error instanceof DocumentError
          ? { code: error.code, message: error.message }
          : mapFailure(error);
      if (!known) onUnexpected(error);
      const failure = known ?? {
        code: 'processing_failed',
        message: 'Processing failed unexpectedly; retry this file once.',
      };
      return {
        ...base,
        status: 'error' as const,
        covered: 0,
        unverified: 0,
        error: failure.code,
        message: failure.message,
      };
    }
  });
}
