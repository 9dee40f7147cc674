/**
 * Bulk processing: the single-document service applied to each file, in parallel up to a
 * bound; one failing file fails only its own entry. Produces the entries of the README's
 * bulk manifest and the files of the ZIP.
 */
import { DocumentError } from '../domain/errors.js';
import type { WrittenFormat } from '../domain/formats.js';
import type { UploadedDocument } from './context.js';

export type BulkStatus = 'masked' | 'no_number_found' | 'failed';

export interface BulkFileResult {
  readonly bytes: Buffer;
  readonly format: WrittenFormat;
  readonly maskedCount: number;
  /** Of them, numbers covered although their check digit failed. */
  readonly unverifiedCount: number;
  /** Masking's re-read of the output (mask-document.ts); absent where none is made. */
  readonly residualCheck?: 'passed' | 'none' | 'skipped';
}

export interface BulkEntry<R extends BulkFileResult = BulkFileResult> {
  /** 1-based position in the request. */
  readonly index: number;
  readonly filename: string;
  readonly status: BulkStatus;
  readonly maskedCount: number;
  readonly unverifiedCount: number;
  /** For failures: the error code a single request would have got, and its message. */
  readonly error?: string;
  readonly message?: string;
  readonly result?: R;
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

export async function processBulk<R extends BulkFileResult>(
  files: readonly UploadedDocument[],
  concurrency: number,
  process: (file: UploadedDocument) => Promise<R>,
  mapFailure: FailureMapper,
  onUnexpected: (error: unknown) => void,
): Promise<BulkEntry<R>[]> {
  return mapBounded(files, concurrency, async (file, i) => {
    const base = { index: i + 1, filename: file.filename };
    try {
      const result = await process(file);
      const status: BulkStatus = result.maskedCount > 0 ? 'masked' : 'no_number_found';
      const { maskedCount, unverifiedCount } = result;
      return { ...base, status, maskedCount, unverifiedCount, result };
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
        status: 'failed' as const,
        maskedCount: 0,
        unverifiedCount: 0,
        error: failure.code,
        message: failure.message,
      };
    }
  });
}
