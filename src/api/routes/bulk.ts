/**
 * POST /api/v1/bulk/mask-aadhaar and /api/v1/bulk/mask-pan: repeated `files`, a ZIP back with
 * every processed file and manifest.json (interface.md, Bulk manifest). Quota is checked for the
 * whole batch first and charged for masked files only.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { processBulk, type BulkEntry } from '../../services/bulk.js';
import type { RouteKit } from '../app.js';
import { contentDisposition, outputName } from '../downloads.js';
import { loggableError, toApiError } from '../errors.js';
import { readUpload } from '../uploads.js';
import { zipStream } from '../zip.js';
import {
  AADHAAR_MASKING,
  MASK_FIELDS,
  maskFormOf,
  PAN_MASKING,
  type MaskEndpoint,
} from './mask.js';

export interface ManifestEntry {
  index: number;
  filename: string;
  status: string;
  masked_count: number;
  output: string | null;
  error?: string;
  message?: string;
}

function manifestOf(entries: readonly BulkEntry[]) {
  const results: ManifestEntry[] = entries.map((entry) => ({
    index: entry.index,
    filename: entry.filename,
    status: entry.status,
    masked_count: entry.maskedCount,
    output: entry.result
      ? `${String(entry.index).padStart(3, '0')}_${outputName(entry.filename, entry.result.format, '_masked')}`
      : null,
    ...(entry.error === undefined ? {} : { error: entry.error, message: entry.message ?? '' }),
  }));
  const masked = entries.filter((e) => e.status === 'masked').length;
  return {
    submitted: entries.length,
    masked,
    no_number_found: entries.filter((e) => e.status === 'no_number_found').length,
    failed: entries.filter((e) => e.status === 'failed').length,
    documents_charged: masked,
    results,
  };
}

function bulkRoute(app: FastifyInstance, kit: RouteKit, endpoint: MaskEndpoint): void {
  app.post(
    `/api/v1/bulk/mask-${endpoint.path}`,
    {
      schema: {
        tags: ['masking'],
        summary: `${endpoint.summary}, in many files; a ZIP with manifest.json comes back`,
        description:
          'multipart/form-data: repeated `files` (JPEG, PNG or PDF); optional `output_format`, `mask_qr` and ' +
          '`pdf_password` apply to every file. A file that fails gets status `failed` with its `error` code.',
        consumes: ['multipart/form-data'],
        security: [{ ApiKey: [] }],
        response: {
          200: {
            description: 'ZIP of NNN_<name>_masked.<ext> files and manifest.json',
            content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
          },
          '4xx': { $ref: 'ErrorBody#' },
          '5xx': { $ref: 'ErrorBody#' },
        },
      },
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const form = await readUpload(request, {
        fileField: 'files',
        maxFiles: kit.settings.maxBatchFiles,
        fields: MASK_FIELDS,
        maxFileBytes: kit.settings.maxUploadBytes,
      });
      const { options, uploads } = maskFormOf(form);
      await kit.metering.require(request, uploads.length);

      const entries = await processBulk(
        uploads,
        kit.services.bulkConcurrency,
        (file) => endpoint.mask(kit, file, options),
        (error) => {
          const mapped = toApiError(error, kit.settings.maxUploadBytes);
          return mapped && mapped.status < 500
            ? { code: mapped.code, message: mapped.message }
            : null;
        },
        (error) => {
          request.log.error({ err: loggableError(error) }, 'a bulk file failed unexpectedly');
        },
      );
      const manifest = manifestOf(entries);
      await kit.metering.charge(request, manifest.documents_charged);

      const files = entries.flatMap((entry, i) => {
        const name = manifest.results[i]?.output;
        return entry.result && name ? [{ name, bytes: entry.result.bytes }] : [];
      });
      files.push({ name: 'manifest.json', bytes: Buffer.from(JSON.stringify(manifest, null, 2)) });
      return reply
        .header('Content-Type', 'application/zip')
        .header('Content-Disposition', contentDisposition('masked.zip'))
        .send(zipStream(files));
    },
  );
}

export const bulkRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  bulkRoute(app, kit, AADHAAR_MASKING);
  bulkRoute(app, kit, PAN_MASKING);
  return Promise.resolve();
};
