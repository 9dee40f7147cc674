/**
 * POST /api/v1/global/redact and /api/v1/global/batch/redact: global identifiers redacted in a
 * PDF, PNG, JPEG, WEBP, TIFF or BMP in one of five modes (README "Redacting files"). The single
 * route streams the file (or JSON with `response_mode=json`) with X-Entities-Found and
 * X-Entity-Types; the batch route answers JSON, one entry per file, one bad file failing only its
 * own entry. Charged one document per file in which something was redacted.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { batchCounts, errorFields, statusWord, type BatchWords } from '../../services/bulk.js';
import { documentsCharged, type ResultSummary } from '../../services/endpoints/file-endpoint.js';
import { GLOBAL_REDACT } from '../../services/endpoints/global-redact.js';
import type { GlobalRedactResult } from '../../services/redact-global.js';
import type { RouteKit } from '../route-kit.js';
import { uploadRouteSchema } from '../route-schemas.js';
import { contentType } from '../downloads.js';
import { runEndpointBatch } from '../batch.js';
import { choice } from '../form-fields.js';
import { readDocumentForm, readUpload } from '../uploads.js';
import {
  downloadName,
  reportHeaders,
  sendDocument,
  type ResultHeaders,
} from '../document-reply.js';

/** The descriptor's fields, and the single route's choice of reply. */
const OPTION_FIELDS = [...Object.keys(GLOBAL_REDACT.fields), 'response_mode'];

function jsonBody(filename: string, result: GlobalRedactResult, summary: ResultSummary) {
  return {
    filename: downloadName(GLOBAL_REDACT, filename, result, summary),
    content_type: contentType(result.format),
    entities_found: result.entitiesFound,
    entity_types: result.types,
    file_base64: result.bytes.toString('base64'),
    report: result.report,
  };
}

const quotaOf = (request: FastifyRequest) => {
  const quota = request.account?.quota;
  return quota ? { used: String(quota.used), remaining: String(quota.remaining) } : undefined;
};

const formDescription =
  'multipart/form-data: `file` (PDF, PNG, JPEG, WEBP, TIFF or BMP); `mode` box (default), blur ' +
  '(images only), mask, token or pseudonym; `entity_types` and `countries` (comma-separated); ' +
  '`mask_keep` 0-8 (default 4); `strip_metadata` (default true); `response_mode` binary ' +
  '(default) or json; `pdf_password`.';

function singleRoute(app: FastifyInstance, kit: RouteKit): void {
  app.post(
    '/api/v1/global/redact',
    {
      schema: uploadRouteSchema({
        tag: 'global',
        summary: 'Redact global identifiers in a document',
        description: formDescription,
        ok: {
          description:
            'The redacted file (X-Entities-Found, X-Entity-Types), or with response_mode=json ' +
            '{filename, content_type, entities_found, entity_types, file_base64, report}',
          content: {
            'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
            'application/json': { schema: { type: 'object', additionalProperties: true } },
          },
        },
      }),
    },
    async (request, reply) => {
      await kit.metering.require(request, 1);
      const form = await readDocumentForm(request, kit.settings.maxUploadBytes, OPTION_FIELDS);
      const options = GLOBAL_REDACT.parse(form.fields);
      const responseMode = choice(form.fields, 'response_mode', ['binary', 'json'], 'binary');
      const result = await GLOBAL_REDACT.run(kit.documents, form.upload, options);
      const summary = GLOBAL_REDACT.summarise(result);
      await kit.metering.charge(request, documentsCharged(summary));
      if (responseMode === 'json') {
        reportHeaders(reply, globalHeaders, result);
        const body = jsonBody(form.upload.filename, result, summary);
        return reply.send({ ...body, report: { ...body.report, quota: quotaOf(request) } });
      }
      return sendDocument(
        reply,
        GLOBAL_REDACT,
        form.upload.filename,
        result,
        summary,
        globalHeaders,
      );
    },
  );
}

const globalHeaders: ResultHeaders<GlobalRedactResult> = (result) => [
  ['X-Entities-Found', String(result.entitiesFound)],
  ['X-Entity-Types', result.types.join(',')],
];

function batchRoute(app: FastifyInstance, kit: RouteKit): void {
  app.post(
    '/api/v1/global/batch/redact',
    {
      schema: {
        tags: ['global'],
        summary: 'Redact global identifiers in many documents; JSON out',
        description:
          `Repeated \`files\` parts (at most PARDA_MAX_BATCH_FILES) and the options of ` +
          `/global/redact, applied to every file. ${formDescription}`,
        consumes: ['multipart/form-data'],
        security: [{ ApiKey: [] }],
      },
    },
    async (request, reply) => {
      const form = await readUpload(request, {
        fileField: 'files',
        maxFiles: kit.settings.maxBatchFiles,
        fields: [...OPTION_FIELDS, 'pdf_password'],
        maxFileBytes: kit.settings.maxUploadBytes,
      });
      // The whole batch must fit the quota before any work.
      const entries = await runEndpointBatch(request, kit, GLOBAL_REDACT, form);
      const counts = batchCounts(entries, REDACTED);
      await kit.metering.charge(request, counts.documents_charged);
      return reply
        .header('X-Entities-Found', String(entries.reduce((n, e) => n + e.covered, 0)))
        .send({
          ...counts,
          quota: quotaOf(request),
          results: entries.map((entry) => ({
            index: entry.index,
            filename: entry.filename,
            status: statusWord(entry.status, REDACTED),
            ...(entry.result
              ? jsonBody(entry.filename, entry.result, GLOBAL_REDACT.summarise(entry.result))
              : {}),
            ...errorFields(entry),
          })),
        });
    },
  );
}

const REDACTED: BatchWords = { done: 'redacted', nothingFound: 'nothing_found' };

export const globalRedactRoutes: FastifyPluginAsync<RouteKit> = async (app, kit) => {
  singleRoute(app, kit);
  batchRoute(app, kit);
  return Promise.resolve();
};
