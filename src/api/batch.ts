/**
 * What every batch route shares: each file through its service in parallel up to the
 * configured bound, a failure confined to its own entry with the code a single request would
 * have got, and unexpected failures logged (without content) as `processing_failed`.
 */
import type { FastifyRequest } from 'fastify';
import {
  processBulk,
  type BulkEntry,
  type BulkFileResult,
  type FileTally,
} from '../services/bulk.js';
import type { UploadedDocument } from '../services/context.js';
import { loggableError, toApiError } from './errors.js';
import type { RouteKit } from './route-kit.js';

export function runBatch<R extends BulkFileResult>(
  request: FastifyRequest,
  kit: RouteKit,
  uploads: readonly UploadedDocument[],
  process: (file: UploadedDocument) => Promise<R>,
  tally: (result: R) => FileTally,
): Promise<BulkEntry<R>[]> {
  return processBulk(uploads, {
    concurrency: kit.settings.bulkConcurrency,
    process,
    tally,
    mapFailure: (error) => {
      const mapped = toApiError(error, kit.settings.maxUploadBytes);
      return mapped && (mapped.status < 500 || mapped.code === 'service_unavailable')
        ? { code: mapped.code, message: mapped.message }
        : null;
    },
    onUnexpected: (error) => {
      request.log.error({ err: loggableError(error) }, 'a batch file failed unexpectedly');
    },
  });
}

/** A password given once for the batch applies to every file. */
export function withPassword(
  files: readonly UploadedDocument[],
  password: string | undefined,
): UploadedDocument[] {
  return files.map((f) => (password === undefined ? f : { ...f, pdfPassword: password }));
}
