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
import type { FileEndpoint, OptionFields } from '../services/endpoints/file-endpoint.js';
import { loggableError, toApiError } from './errors.js';
import type { RouteKit } from './route-kit.js';
import type { UploadForm } from './uploads.js';

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
function withPassword(
  files: readonly UploadedDocument[],
  password: string | undefined,
): UploadedDocument[] {
  return files.map((f) => (password === undefined ? f : { ...f, pdfPassword: password }));
}

/**
 * A batch over an endpoint descriptor: the options from the form (refused before any work),
 * `pdf_password` for every file, the quota for the whole batch up front, then each file.
 */
export async function runEndpointBatch<F extends OptionFields, O, R extends BulkFileResult>(
  request: FastifyRequest,
  kit: RouteKit,
  endpoint: FileEndpoint<F, O, R>,
  form: UploadForm,
): Promise<BulkEntry<R>[]> {
  const options = endpoint.parse(form.fields);
  const uploads = withPassword(form.files, form.fields.get('pdf_password'));
  await kit.metering.require(request, uploads.length);
  return runBatch(
    request,
    kit,
    uploads,
    (file) => endpoint.run(kit.documents, file, options),
    endpoint.summarise,
  );
}
