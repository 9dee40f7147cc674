/**
 * POST /api/v1/bulk/mask-aadhaar and /api/v1/bulk/mask-pan: repeated `files`, a ZIP back with
 * every processed file and manifest.json (README, Bulk manifest). Quota is checked for the
 * whole batch first and charged for masked files only.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import {
  batchCounts,
  errorFields,
  statusWord,
  type BatchWords,
  type BulkEntry,
} from '../../services/bulk.js';
import { REDACT_PII } from '../../services/endpoints/redact-pii.js';
import type { RedactResult } from '../../services/redact-pii.js';
import type { RouteKit } from '../route-kit.js';
import { uploadRouteSchema, type UploadForm } from '../route-schemas.js';
import { contentDisposition, outputName } from '../downloads.js';
import { runEndpointBatch } from '../batch.js';
import { readUpload } from '../uploads.js';
import { zipStream } from '../zip.js';
import { AADHAAR_MASKING, MASK_FIELDS, maskForm, PAN_MASKING, type MaskEndpoint } from './mask.js';
import { redactPiiForm } from './redact-pii.js';

export interface ManifestEntry {
  index: number;
  filename: string;
  status: string;
  masked_count: number;
  unverified_count: number;
  /** `passed`, `none` or `skipped`, as the single endpoints' X-Residual-Check; absent for failed files. */
  residual_check?: string;
  output: string | null;
  error?: string;
  message?: string;
}

const MASKED: BatchWords = { done: 'masked', nothingFound: 'no_number_found' };

function manifestOf(entries: readonly BulkEntry[]) {
  const results: ManifestEntry[] = entries.map((entry) => ({
    index: entry.index,
    filename: entry.filename,
    status: statusWord(entry.status, MASKED),
    masked_count: entry.covered,
    unverified_count: entry.unverified,
    ...(entry.result?.residualCheck ? { residual_check: entry.result.residualCheck } : {}),
    output: outputOf(entry, '_masked'),
    ...errorFields(entry),
  }));
  return { ...batchCounts(entries, MASKED), results };
}

/** The OpenAPI schema of a bulk route: repeated `files` in, a ZIP of `NNN_<name><suffix>.<ext>` out. */
function bulkSchema(tag: string, summary: string, form: UploadForm, suffix: string) {
  return uploadRouteSchema({
    tag,
    summary,
    description:
      'At most PARDA_MAX_BATCH_FILES files; the options apply to every file, and the quota must ' +
      'hold the whole batch before any work. A file that fails gets status `failed` with its ' +
      '`error` code and `message` in the manifest (and counts in `failed`); the others are ' +
      'processed.',
    form,
    ok: {
      description: `ZIP of NNN_<name>${suffix}.<ext> files (one for every file that did not fail) and manifest.json`,
      content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
    },
  });
}

/** A batch's form: repeated `files` up to the batch limit, and the route's text parts. */
async function readBatch(request: FastifyRequest, kit: RouteKit, fields: readonly string[]) {
  await kit.metering.require(request, 1);
  return readUpload(request, {
    fileField: 'files',
    maxFiles: kit.settings.maxBatchFiles,
    fields,
    maxFileBytes: kit.settings.maxUploadBytes,
  });
}

/** The ZIP reply: each processed file under its manifest name, then manifest.json. */
function sendZip(
  reply: FastifyReply,
  name: string,
  entries: readonly BulkEntry[],
  manifest: { readonly results: readonly { readonly output: string | null }[] },
) {
  const files = entries.flatMap((entry, i) => {
    const output = manifest.results[i]?.output;
    return entry.result && output ? [{ name: output, bytes: entry.result.bytes }] : [];
  });
  files.push({ name: 'manifest.json', bytes: Buffer.from(JSON.stringify(manifest, null, 2)) });
  return reply
    .header('Content-Type', 'application/zip')
    .header('Content-Disposition', contentDisposition(name))
    .send(zipStream(files));
}

function bulkRoute(app: FastifyInstance, kit: RouteKit, endpoint: MaskEndpoint): void {
  app.post(
    `/api/v1/bulk/mask-${endpoint.path}`,
    {
      schema: bulkSchema(
        'masking',
        `${endpoint.summary}, in many files; a ZIP with manifest.json comes back`,
        maskForm(endpoint, 'files'),
        '_masked',
      ),
    },
    async (request, reply) => {
      const form = await readBatch(request, kit, MASK_FIELDS);
      const entries = await runEndpointBatch(request, kit, endpoint.descriptor, form);
      const manifest = manifestOf(entries);
      await kit.metering.charge(request, manifest.documents_charged);
      return sendZip(reply, 'masked.zip', entries, manifest);
    },
  );
}

/**
 * `NNN_<name><suffix>.<ext>` for every file written, as the interface names bulk outputs (the
 * zero-padded index, the base name, `_masked`, the output's extension), whatever was found: the
 * manifest's `status` says whether anything was.
 */
const outputOf = (entry: BulkEntry, suffix: string) =>
  entry.result
    ? `${String(entry.index).padStart(3, '0')}_${outputName(entry.filename, entry.result.format, suffix)}`
    : null;

const REDACTED: BatchWords = { done: 'redacted', nothingFound: 'nothing_found' };

/**
 * The anonymise manifest: the bulk manifest's shape with redaction's words (`redacted`,
 * `nothing_found`, `redacted_count`) and each file's detections per type.
 */
function anonymiseManifestOf(entries: readonly BulkEntry<RedactResult>[]) {
  return {
    ...batchCounts(entries, REDACTED),
    results: entries.map((entry) => ({
      index: entry.index,
      filename: entry.filename,
      status: statusWord(entry.status, REDACTED),
      redacted_count: entry.covered,
      unverified_count: entry.unverified,
      ...(entry.result?.residualCheck ? { residual_check: entry.result.residualCheck } : {}),
      types: entry.result?.typeCounts ?? {},
      output: outputOf(entry, '_redacted'),
      ...errorFields(entry),
    })),
  };
}

function anonymiseRoute(app: FastifyInstance, kit: RouteKit): void {
  app.post(
    '/api/v1/bulk/anonymise',
    {
      schema: bulkSchema(
        'redaction',
        'Redact Indian identifiers in many files; a ZIP with manifest.json comes back',
        redactPiiForm('files'),
        '_redacted',
      ),
    },
    async (request, reply) => {
      const form = await readBatch(request, kit, ['types', 'pdf_password']);
      const entries = await runEndpointBatch(request, kit, REDACT_PII, form);
      const manifest = anonymiseManifestOf(entries);
      await kit.metering.charge(request, manifest.documents_charged);
      return sendZip(reply, 'redacted.zip', entries, manifest);
    },
  );
}

export const bulkRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  bulkRoute(app, kit, AADHAAR_MASKING);
  bulkRoute(app, kit, PAN_MASKING);
  anonymiseRoute(app, kit);
  return Promise.resolve();
};
